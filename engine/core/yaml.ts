import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

/**
 * YAML parsing, with the library loaded on first use: a boot from the compiled
 * registry parses no YAML, and loading the parser is a tenth of a boot.
 */
export function parseYaml(text: string, options?: { prettyErrors?: boolean }): any {
  yaml ??= require('yaml') as typeof Yaml;
  return yaml.parse(text, options);
}

/**
 * What the typed-client tests share: an instance serving the few endpoints their calls use,
 * and TypeScript 7's native compiler, run directly (its node shim cannot load under the
 * test runner's hooks).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENDPOINTS_DIR, ROOT } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, type Served } from '../support/serve.js';

/** An instance with fun/quote, tools/reverse and tools/jsonformat (and the built-in routes). */
export function serveClientEndpoints(): Promise<Served> {
  const endpoints = ['fun', 'tools'].flatMap((category) =>
    loadEndpoints(path.join(ENDPOINTS_DIR, category)).filter((e) => ['quote.yaml', 'reverse.yaml', 'json-format.yaml'].includes(e.file)),
  );
  return serve({}, { endpoints });
}

/** The path of the `tsc` executable of the project's TypeScript 7. */
export async function tscPath(): Promise<string> {
  const { default: exePath } = (await import(pathToFileURL(path.join(ROOT, 'node_modules', 'typescript', 'lib', 'getExePath.js')).href)) as {
    default: () => string;
  };
  return exePath();
}

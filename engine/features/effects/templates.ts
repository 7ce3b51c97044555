import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../core/root.js';
import { parseYaml } from '../../core/yaml.js';
import type { ValidateFunction } from 'ajv';
import { FONTS } from './fonts.js';
import type { Template } from './template.generated.js';
import { ajvFor } from '../../core/ajv.js';

/** templates/ at the repository root. */
export const TEMPLATES_DIR = path.join(ROOT, 'templates');

/**
 * The template schema as the effect adapter's config checks it (boot and lint):
 * font ids must be fonts Manifold ships, and a template read from templates/ carries
 * its `file` (the family loader adds it, so errors can name the file).
 */
export const TEMPLATE_SCHEMA = withFonts(JSON.parse(fs.readFileSync(new URL('./template.schema.json', import.meta.url), 'utf8')));

function withFonts(schema: Record<string, any>): object {
  // no $schema: the schema is embedded in the effect adapter's config schema ($id keeps its #/$defs local)
  const { $schema: _draft, ...rest } = schema;
  rest.properties = { ...rest.properties, file: { type: 'string', description: 'The template file (set by the loader).' } };
  rest.$defs.textLayer.properties.font = { ...rest.$defs.textLayer.properties.font, enum: Object.keys(FONTS) };
  return rest;
}

let validate: ValidateFunction | undefined;

/** Hash of a template's content: part of render cache keys, so an edited template renders anew. */
export function templateHash(template: Template): string {
  return crypto.createHash('sha256').update(JSON.stringify(template)).digest('hex').slice(0, 16);
}

export interface LoadedTemplate {
  template: Template;
  /** Hash of the template's content: part of the render cache key, so an edit re-renders. */
  hash: string;
  file: string;
}

/**
 * Every template in dir, validated, by slug. The engine gets its templates from the
 * compiled registry (each is its endpoint's family item); this reader serves tests,
 * benchmarks and scripts, and checks what one file alone cannot: slugs are unique
 * and each file is named after its slug.
 */
export function loadTemplates(dir = TEMPLATES_DIR): Map<string, LoadedTemplate> {
  validate ??= ajvFor('as-written').compile(TEMPLATE_SCHEMA);
  const registry = new Map<string, LoadedTemplate>();
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    const file = path.join(dir, name);
    const template = parseYaml(fs.readFileSync(file, 'utf8')) as Template;
    if (!validate(template)) {
      const e = validate.errors![0];
      throw new Error(`${name}: ${e.instancePath || '/'} ${e.message}`);
    }
    if (registry.has(template.slug)) throw new Error(`${name}: duplicate slug ${template.slug}`);
    if (`${template.slug}.yaml` !== name) throw new Error(`${name}: file name must be <slug>.yaml`);
    registry.set(template.slug, { template, hash: templateHash(template), file });
  }
  return registry;
}

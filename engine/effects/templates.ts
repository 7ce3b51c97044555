import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { Ajv } from 'ajv';
import { FONTS } from './fonts.js';
import type { Template } from './template-types.js';

/** templates/ at the repository root. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates', import.meta.url));

const schema = JSON.parse(fs.readFileSync(new URL('./template.schema.json', import.meta.url), 'utf8'));
const validate = new Ajv({ allErrors: false, strict: false }).compile(schema);

export interface LoadedTemplate {
  template: Template;
  /** Hash of the template's content: part of the render cache key, so an edit re-renders. */
  hash: string;
  file: string;
}

const registries = new Map<string, Map<string, LoadedTemplate>>();

/** Every template in dir, validated, by slug; read once per directory. */
export function loadTemplates(dir = TEMPLATES_DIR): Map<string, LoadedTemplate> {
  const resolved = path.resolve(dir);
  let registry = registries.get(resolved);
  if (registry) return registry;
  registry = new Map();
  for (const name of fs.readdirSync(resolved).filter((n) => n.endsWith('.yaml')).sort()) {
    const file = path.join(resolved, name);
    const text = fs.readFileSync(file, 'utf8');
    const template = YAML.parse(text) as Template;
    if (!validate(template)) {
      const e = validate.errors![0];
      throw new Error(`${name}: ${e.instancePath || '/'} ${e.message}`);
    }
    for (const layer of template.text ?? []) if (!FONTS[layer.font]) throw new Error(`${name}: unknown font ${layer.font}`);
    if (registry.has(template.slug)) throw new Error(`${name}: duplicate slug ${template.slug}`);
    if (`${template.slug}.yaml` !== name) throw new Error(`${name}: file name must be <slug>.yaml`);
    registry.set(template.slug, { template, hash: crypto.createHash('sha256').update(text).digest('hex').slice(0, 16), file });
  }
  registries.set(resolved, registry);
  return registry;
}

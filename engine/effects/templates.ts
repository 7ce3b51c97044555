import crypto from 'node:crypto';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { schemaAjv } from '../manifest/load.js';
import { FONTS } from './fonts.js';
import type { Template } from './template-types.js';

/** templates/ at the repository root. */
export const TEMPLATES_DIR = fileURLToPath(new URL('../../templates', import.meta.url));

const schema = JSON.parse(fs.readFileSync(new URL('./template.schema.json', import.meta.url), 'utf8'));
const validate = schemaAjv.compile(schema);

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
  const parsed = readParsed();
  const current: Record<string, Template> = {};
  let parsedChanged = false;
  for (const name of fs.readdirSync(resolved).filter((n) => n.endsWith('.yaml')).sort()) {
    const file = path.join(resolved, name);
    const text = fs.readFileSync(file, 'utf8');
    const digest = crypto.createHash('sha256').update(text).digest('hex');
    if (!parsed[digest]) {
      parsed[digest] = YAML.parse(text) as Template;
      parsedChanged = true;
    }
    current[digest] = parsed[digest];
    const template = structuredClone(parsed[digest]);
    if (!validate(template)) {
      const e = validate.errors![0];
      throw new Error(`${name}: ${e.instancePath || '/'} ${e.message}`);
    }
    for (const layer of template.text ?? []) if (!FONTS[layer.font]) throw new Error(`${name}: unknown font ${layer.font}`);
    if (registry.has(template.slug)) throw new Error(`${name}: duplicate slug ${template.slug}`);
    if (`${template.slug}.yaml` !== name) throw new Error(`${name}: file name must be <slug>.yaml`);
    registry.set(template.slug, { template, hash: digest.slice(0, 16), file });
  }
  // rewritten with only this directory's templates, so old versions don't pile up
  if (parsedChanged) writeParsed(current);
  registries.set(resolved, registry);
  return registry;
}

/**
 * Parsed templates by content hash, kept between runs: parsing ~900 YAML files took
 * most of a warm boot, reading one JSON file takes milliseconds. Keyed by content, so
 * an edited template is simply parsed again.
 */
const PARSED_CACHE = path.join(os.tmpdir(), `manifold-templates-${process.getuid?.() ?? 'u'}.json`);

function readParsed(): Record<string, Template> {
  try {
    return JSON.parse(fs.readFileSync(PARSED_CACHE, 'utf8')) as Record<string, Template>;
  } catch {
    return {};
  }
}

function writeParsed(parsed: Record<string, Template>): void {
  try {
    const temp = `${PARSED_CACHE}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(parsed));
    fs.renameSync(temp, PARSED_CACHE);
  } catch {
    // only a cache
  }
}

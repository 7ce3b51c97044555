import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../core/yaml.js';
import type { Manifest } from '../core/manifest-types.js';
import { fillPlaceholders, PLACEHOLDER_SYNTAX } from '../core/placeholders.js';
import type { Sources } from './sources.js';

/**
 * Family expansion: one manifest plus a list of items gives one manifest per item.
 * `{{name}}` (or `{{a.b}}`) inside strings is replaced by the item's value; a string
 * that is exactly one placeholder takes the value as is (numbers, lists, objects).
 * `{{.}}` is the whole item: an adapter that needs all of it (an effect template)
 * gets it in its config, so the compiled registry carries it and nothing reloads it.
 * `{{name?}}` is optional: a field the item lacks leaves the key out (or '' in text).
 */
export function familyItems(manifest: Manifest, dir: string, sources?: Sources): Record<string, unknown>[] {
  const family = manifest.family!;
  let items: Record<string, unknown>[];
  if (family.items) items = family.items as Record<string, unknown>[];
  else if (family.data) items = readData(path.resolve(dir, family.data), sources);
  else items = readDir(path.resolve(dir, family.dir!), sources);
  const where = family.where;
  if (!where) return items;
  return items.filter((item) => Object.entries(where).every(([k, v]) => lookup(item, k) === v));
}

function readData(file: string, sources?: Sources): Record<string, unknown>[] {
  sources?.file(file);
  const data = parseYaml(fs.readFileSync(file, 'utf8'));
  if (!Array.isArray(data)) throw new Error(`${file}: family data must be a list`);
  return data;
}

function readDir(dir: string, sources?: Sources): Record<string, unknown>[] {
  sources?.dir(dir);
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => {
      sources?.file(path.join(dir, name));
      return { ...parseYaml(fs.readFileSync(path.join(dir, name), 'utf8')), file: path.join(dir, name) };
    });
}

function lookup(item: Record<string, unknown>, dotted: string): unknown {
  if (dotted === '.') return item;
  let value: unknown = item;
  for (const key of dotted.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export const substitute = (value: unknown, item: Record<string, unknown>): unknown =>
  fillPlaceholders(value, PLACEHOLDER_SYNTAX.family, (key) => valueOf(item, key));

function valueOf(item: Record<string, unknown>, key: string): unknown {
  if (key.endsWith('?')) return lookup(item, key.slice(0, -1));
  const value = lookup(item, key);
  if (value === undefined) throw new Error(`family item has no field "${key}"`);
  return value;
}

import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../engine/app/app.js';
import { parseYaml } from '../../engine/core/yaml.js';
import type { VariableUse } from './scan-variables.js';
import { ajvFor } from '../../engine/core/ajv.js';

/**
 * The descriptions of engine/platform/settings/variables.yaml, joined to what the scanner found:
 * one entry per variable the code reads, described by its row, or, for an upstream's
 * base URL or an executable's override path without a row, by where it is declared.
 */
export const VARIABLES_FILE = path.join(ROOT, 'engine', 'platform', 'settings', 'variables.yaml');

export interface Row {
  group: string;
  meaning: string;
  default?: string;
  unset?: string;
  secret?: boolean;
  readBy?: string;
}

export interface DescriptionFile {
  groups: Record<string, string>;
  variables: Record<string, Row>;
}

export interface Setting extends Row {
  name: string;
  /** Where the code, a manifest or an upstream spec reads it (a library for `readBy` rows). */
  readBy: string;
  sources: string[];
}

const rowSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['group', 'meaning'],
  properties: {
    group: { type: 'string' },
    meaning: { type: 'string', minLength: 8 },
    default: { type: 'string' },
    unset: { type: 'string' },
    secret: { type: 'boolean' },
    readBy: { type: 'string' },
  },
};
const fileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['groups', 'variables'],
  properties: {
    groups: { type: 'object', additionalProperties: { type: 'string' } },
    variables: { type: 'object', propertyNames: { pattern: '^[A-Z][A-Z0-9_]*$' }, additionalProperties: rowSchema },
  },
};

export function readDescriptions(file = VARIABLES_FILE): DescriptionFile {
  const data = parseYaml(fs.readFileSync(file, 'utf8'));
  const validate = ajvFor('as-written').compile<DescriptionFile>(fileSchema);
  if (!validate(data)) throw new Error(`${path.relative(ROOT, file)}: ${validate.errors!.map((e) => `${e.instancePath} ${e.message}`).join('; ')}`);
  for (const [name, row] of Object.entries(data.variables))
    if (!data.groups[row.group]) throw new Error(`${path.relative(ROOT, file)}: ${name} names unknown group ${row.group}`);
  return data;
}

/** What the check finds wrong: variables read without a description, rows nothing reads. */
export interface Mismatch {
  undescribed: string[];
  unread: string[];
}

export function compare(uses: Map<string, VariableUse>, file: DescriptionFile): Mismatch {
  return {
    undescribed: [...uses.values()].filter((u) => !file.variables[u.name] && !u.upstreamUrl && !u.binary).map((u) => u.name),
    unread: Object.entries(file.variables)
      .filter(([name, row]) => !uses.has(name) && !row.readBy)
      .map(([name]) => name),
  };
}

/** Every setting, rows first where they exist; throws on a mismatch (the test says which). */
export function settings(uses: Map<string, VariableUse>, file: DescriptionFile): Setting[] {
  const { undescribed, unread } = compare(uses, file);
  if (undescribed.length || unread.length)
    throw new Error(
      `variables.yaml is out of step with the code: undescribed ${undescribed.join(', ') || 'none'}; described but unread ${unread.join(', ') || 'none'}`,
    );
  const out: Setting[] = [];
  for (const use of uses.values()) {
    const row = file.variables[use.name] ?? derivedRow(use);
    out.push({ ...row, name: use.name, readBy: use.readBy.join(', '), sources: use.readBy });
  }
  for (const [name, row] of Object.entries(file.variables)) if (!uses.has(name)) out.push({ ...row, name, readBy: row.readBy!, sources: [] });
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** An upstream's base URL or an executable's path, described from where it is declared. */
function derivedRow(use: VariableUse): Row {
  if (use.upstreamUrl) {
    const { upstream, default: url } = use.upstreamUrl;
    return {
      group: 'upstreams',
      meaning: `Base URL of the \`${upstream}\` upstream (endpoints/upstreams/${upstream}.yaml): point it at a mirror or a proxy.`,
      ...(url ? { default: url } : { unset: 'upstream unavailable' }),
    };
  }
  return {
    group: 'binaries',
    meaning: `Path of the \`${use.binary}\` executable, when it is not the one on \`PATH\`.`,
    unset: `\`${use.binary}\` on PATH`,
  };
}

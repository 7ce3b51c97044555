import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEngine } from '../../engine/app/app.js';
import { loadConfig } from '../../engine/platform/config.js';
import { WORKER_ROUTES } from '../../engine/pipeline/jobs/settings.js';
import { silentLogger } from '../../engine/platform/log.js';
import type { Builtin } from '../../engine/pipeline/builtin.js';
import { cell, code, generatedNote } from './markdown.js';

/**
 * docs/using/built-in-routes.md: the engine's own routes (health, keys, usage, jobs, files,
 * discovery, metrics) from the table the features declare (engine/app/features.ts), the same
 * table the dispatcher serves and /api/admin/endpoints and /openapi.json list. An engine is
 * built on an empty temporary DATA_DIR and the defaults, so the page does not depend on the
 * environment it is generated in, then closed; nothing listens.
 */
export async function builtinRoutes(): Promise<readonly Builtin[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-docs-'));
  const engine = createEngine({ config: loadConfig({ DATA_DIR: dataDir, LOG_REQUESTS: '0' }), logger: silentLogger });
  try {
    return engine.builtins;
  } finally {
    await engine.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const WHO: Record<Builtin['auth'], string> = {
  none: 'anyone, no key and no budget',
  key: 'an API key, counted against its budget like any endpoint',
  admin: '`Authorization: Bearer $ADMIN_TOKEN`',
};

export function routesDoc(builtins: readonly Builtin[]): string {
  const listed = builtins.filter((b) => !b.hidden).sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
  const lines = [
    '# Built-in routes',
    '',
    generatedNote('npm run docs:generate', "the route table the engine's features declare (engine/app/features.ts)"),
    '',
    `Besides the manifest endpoints, the engine serves ${listed.length} routes of its own. They run through the same`,
    'dispatcher as the manifests: one router, one 404/405 decision, the same envelopes, keys checked before bodies and the',
    'same rate limits. `GET /api/admin/endpoints` lists them under `result.builtins` and `/openapi.json` documents them',
    'under the tag `system`, both from the same table as this page.',
    '',
    'Who may call a route (`auth`):',
    '',
    ...(['none', 'key', 'admin'] as const).map((auth) => `- ${code(auth)}: ${WHO[auth]}`),
    '',
    'A job worker (`MANIFOLD_ROLE=worker`) serves only the routes marked *worker*; every other instance serves them all.',
    '',
    '| route | auth | what | query |',
    '|---|---|---|---|',
  ];
  for (const b of listed) {
    const id = `${b.method} ${b.path}`;
    const route = [id, ...b.aliases.map((alias) => `${b.method} ${alias}`)].map(code).join(', ');
    const worker = WORKER_ROUTES.includes(id) ? ' (*worker*)' : '';
    const query = Object.entries(b.query ?? {})
      .map(([name, spec]) => `${code(name)}${schemaNote(spec.schema)}: ${spec.description}`)
      .join('; ');
    const body = b.jsonBody !== undefined ? ` (JSON body: at most ${b.jsonBody.toLocaleString('en-US')} bytes)` : '';
    lines.push(`| ${route}${worker} | ${code(b.auth)} | ${cell(b.summary + body)} | ${cell(query)} |`);
  }
  lines.push('');
  return lines.join('\n');
}

/** What a query parameter's schema allows, in brackets: its values, range and default. */
function schemaNote(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(schema.enum.join(' | '));
  else if (typeof schema.type === 'string') parts.push(schema.type);
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? ''}–${schema.maximum ?? ''}`);
  if (schema.default !== undefined) parts.push(`default ${schema.default}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../engine/core/root.js';
import { ERROR_CODES, type ErrorCodeRow } from '../../engine/core/error-codes.js';
import { ApiError } from '../../engine/core/errors.js';
import { EndpointRouter } from '../../engine/catalog/router.js';
import { loadConfig } from '../../engine/platform/config.js';
import { buildOpenApi } from '../../engine/pipeline/discovery/openapi.js';

/**
 * The error-code table (engine/core/error-codes.ts) against the engine's code and
 * /openapi.json: every code written in engine/ has a row, every row a client can receive
 * is written somewhere, and the document lists exactly those, each under its status.
 */

/** Where a code is written in engine/: thrown, revived from a job or a worker, sent in a stream's or a job's error, or compared. */
const CODE_PATTERNS = [
  /new ApiError\(\s*'([a-z][a-z_]*)'/g,
  /reviveError\(\s*'([a-z][a-z_]*)'/g,
  /\berror: '([a-z][a-z_]*)'/g,
  /(?<!typeof [\w.?]*)\.code [!=]== '([a-z][a-z_]*)'/g,
];

function codesInEngine(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const dir = path.join(ROOT, 'engine');
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    if (!rel.endsWith('.ts') || rel.endsWith('.generated.ts')) continue;
    const text = fs.readFileSync(path.join(dir, rel), 'utf8');
    for (const pattern of CODE_PATTERNS) for (const [, code] of text.matchAll(pattern)) found.set(code, [...(found.get(code) ?? []), `engine/${rel}`]);
  }
  return found;
}

const rows = Object.entries(ERROR_CODES) as [keyof typeof ERROR_CODES, ErrorCodeRow][];
const written = codesInEngine();

t.test('every code written in engine/ has a row in the table', async (t) => {
  t.ok(written.size >= rows.length - 1, `the scan finds the codes (${written.size})`);
  for (const [code, where] of written)
    t.ok(Object.hasOwn(ERROR_CODES, code), `${code}, written in ${[...new Set(where)].join(', ')}, has a row in engine/core/error-codes.ts`);
});

t.test('every row is a code the engine answers', async (t) => {
  for (const [code] of rows) t.ok(written.has(code), `${code} is written somewhere in engine/ (else drop its row)`);
});

t.test('the status of an ApiError is its row', async (t) => {
  for (const [code, row] of rows) t.equal(new ApiError(code, 'x').status, row.status, code);
  t.ok(
    rows.every(([code]) => /^[a-z]+(_[a-z]+)*$/.test(code)),
    'codes are snake_case',
  );
});

t.test("/openapi.json's error codes are the codes a client can receive", async (t) => {
  const registry = { routes: [], byId: new Map(), router: new EndpointRouter([]), built: Promise.resolve() };
  const doc = buildOpenApi(registry, loadConfig({})) as any;
  const documented: string[] = doc.components.schemas.Error.properties.error.enum;
  const answered = [...written.keys()].filter((code) => (ERROR_CODES as Record<string, ErrorCodeRow>)[code]?.answered !== false);
  t.same([...documented].sort(), answered.sort());
  for (const [code, row] of rows) {
    const response = doc.components.responses[String(row.status)];
    if (row.answered === false) {
      t.notOk(documented.includes(code), `${code} is never sent`);
      continue;
    }
    t.ok(response?.content['application/json'].schema.allOf[1].properties.error.enum.includes(code), `${code} documented under ${row.status}`);
  }
});

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ROOT } from '../../scripts/docs/root.js';
import { engineMapDoc, layers } from '../../scripts/docs/engine-map.js';
import { builtinRoutes, routesDoc } from '../../scripts/docs/routes.js';
import { errorsDoc } from '../../scripts/docs/errors.js';
import { ERROR_CODES, type ErrorCodeRow } from '../../engine/core/error-codes.js';

/**
 * The generated references hold what they are generated from: the engine map names every
 * layer folder of engine/ (and nothing else), the built-in routes page every listed route, the
 * errors page every code of the engine's table with its status.
 * Whether the committed files are current is `npm run docs:check` (CI).
 */
t.test('the engine map reads the layers from the import rule, and they are exactly the folders of engine/', async (t) => {
  const folders = fs
    .readdirSync(path.join(ROOT, 'engine'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  t.same([...layers(ROOT)].sort(), folders.sort(), 'every engine folder is a layer of .dependency-cruiser.cjs');
  const doc = engineMapDoc(ROOT);
  for (const layer of layers(ROOT)) t.match(doc, `\n## ${layer}\n`, `a section for ${layer}`);
  t.match(doc, /\| `engine\/platform\/auth\/` \| `test\/auth\/` \|/, 'a folder with a test folder of its name');
});

t.test('the built-in routes page lists every route the listing shows, with who may call it', async (t) => {
  const builtins = await builtinRoutes();
  const doc = routesDoc(builtins);
  const listed = builtins.filter((b) => !b.hidden);
  t.ok(listed.length > 10, `${listed.length} routes`);
  for (const b of listed) t.match(doc, `| \`${b.method} ${b.path}\``, `${b.method} ${b.path}`);
  for (const b of builtins.filter((b) => b.hidden))
    t.notMatch(doc, `\`${b.method} ${b.path}\``, `${b.path} is an asset, left out as the listing leaves it out`);
  t.match(doc, /\| `GET \/api\/admin\/usage` \| `admin` \|/);
  t.match(doc, /\| `GET \/health` \(\*worker\*\) \| `none` \|/, 'a route a worker serves is marked');
});

t.test('the errors page has every code a client can get, with its status, and names the one never sent apart', async (t) => {
  const doc = errorsDoc();
  const rows = Object.entries(ERROR_CODES) as [string, ErrorCodeRow][];
  for (const [code, row] of rows.filter(([, r]) => r.answered !== false)) t.match(doc, `| ${row.status} | \`${code}\` |`, `${code} (${row.status})`);
  for (const [code] of rows.filter(([, r]) => r.answered === false)) {
    t.notMatch(doc, `| \`${code}\` |`, `${code} is not in the table of answers`);
    t.match(doc, `- \`${code}\``, `${code} is listed as never sent`);
  }
  const statuses = [...doc.matchAll(/^\| (\d{3}) \|/gm)].map((m) => Number(m[1]));
  t.same(
    statuses,
    [...statuses].sort((a, b) => a - b),
    'by status',
  );
});

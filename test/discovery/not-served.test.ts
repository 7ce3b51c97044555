import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { loadNotServed, NOT_SERVED_FILE } from '../../engine/pipeline/discovery/not-served.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR);
const listed = loadNotServed();

t.test('the policy list names the paths the issue excludes, each with a reason', async (t) => {
  const paths = listed.map((e) => e.path);
  for (const name of ['xvideosdl', 'xnxxdl', 'xvideossearch', 'hneko', 'hwaifu', 'loli', 'milf', 'watermarkremover', 'freeproxy', 'ffstalk']) {
    t.ok(
      paths.some((p) => p.endsWith(`/${name}`)),
      `${name} is listed`,
    );
  }
  t.ok(paths.includes('/api/tempgen/sms/generate') && paths.includes('/api/tempgen/sms/inbox'), 'temporary SMS numbers are listed');
  t.equal(new Set(paths.map((p) => p.toLowerCase())).size, paths.length, 'no path twice');
});

t.test('no listed path is served by an endpoint', async (t) => {
  const served = new Set(endpoints.flatMap((e) => [e.path, ...e.aliases]).map((p) => p.toLowerCase()));
  t.same(
    listed.filter((e) => served.has(e.path.toLowerCase())).map((e) => e.path),
    [],
    'policy and registry do not overlap',
  );
});

t.test('a malformed list is refused with the file named', async (t) => {
  const dir = tempDataDir('not-served-');
  const file = path.join(dir, 'bad.yaml');
  fs.writeFileSync(file, '- path: api/no-slash\n  reason: x\n');
  t.throws(() => loadNotServed(file), /bad\.yaml: item 0/);
  t.ok(fs.existsSync(NOT_SERVED_FILE), 'the project file exists');
});

t.test('a client calling a listed path gets a 404 envelope saying it is not offered, and why', async (t) => {
  const served = await serve({}, { endpoints: endpoints.filter((e) => e.category === 'fun').slice(0, 3) });
  t.teardown(() => served.close());
  for (const { path: p, reason } of listed) {
    const res = await fetch(`${served.url}${p}?apikey=${TEST_KEY}&url=https://example.com/x`);
    const body = (await res.json()) as Record<string, unknown>;
    t.equal(res.status, 404, `${p}: HTTP 404`);
    t.match(body, { status: 404, success: false, error: 'not_found' }, `${p}: error envelope`);
    t.equal(body.message, `This endpoint is not offered by Manifold: ${reason}`, `${p}: the message says why`);
  }
  // as routes are matched: any case, a trailing slash, with or without a key
  const loud = await fetch(`${served.url}/API/Anime/HNeko/`);
  t.match(await loud.json(), { status: 404, message: /not offered by Manifold/ }, 'case and trailing slash do not matter');
  const other = await fetch(`${served.url}/api/anime/no-such-thing?apikey=${TEST_KEY}`);
  t.match(
    await other.json(),
    { status: 404, error: 'not_found', message: /^No such endpoint \(GET \/api\/admin\/endpoints lists/ },
    'an unknown path keeps the plain 404, pointing at the listing',
  );
});

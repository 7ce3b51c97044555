import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { startPostgres } from '../support/postgres.js';
import { serve } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

/**
 * Two engines on one DATABASE_URL behave as one service for keys and short links.
 * Each has its own connection pool (its EngineDatabase), so nothing is shared in
 * memory: what one sees of the other went through PostgreSQL.
 */
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tempgen')).filter((e) => /short/.test(e.file));
const postgres = await startPostgres(t);
const url = await postgres.newDatabase();
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

const [a, b] = await Promise.all(['a', 'b'].map(() => serve({ DATABASE_URL: url, ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { endpoints })));
t.teardown(async () => {
  await a.close();
  await b.close();
});

t.test('the same DATABASE_URL, a pool each', async (t) => {
  t.not(a.engine.database.current(), b.engine.database.current());
});

t.test('a key made on one engine works on the other, and a revocation on either is effective on the next request', async (t) => {
  const created = await (
    await fetch(`${a.url}/api/admin/keys`, { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: '{"label":"fleet"}' })
  ).json();
  const key = created.result.key as string;
  const call = (engine: typeof a) => fetch(`${engine.url}/api/admin/endpoints`, { headers: { 'X-API-Key': key } }).then((r) => r.status);
  t.equal(await call(b), 200, 'works on b');
  t.equal(await call(a), 200, 'and on a');
  t.equal(await call(b), 200, 'b again (its memory of the key)');
  t.same(
    (await (await fetch(`${b.url}/api/admin/keys`, { headers: ADMIN })).json()).result.map((k: { id: string }) => k.id),
    [created.result.id],
    'b lists it',
  );
  t.equal((await fetch(`${b.url}/api/admin/keys/${created.result.id}`, { method: 'DELETE', headers: ADMIN })).status, 200, 'revoked on b');
  t.equal(await call(a), 401, 'a refuses it on its next request');
  t.equal(await call(b), 401);
});

t.test('a short link made on one engine resolves on the other, and clicks add up', async (t) => {
  const made = await (
    await fetch(`${a.url}/api/tools/tinyurl?url=${encodeURIComponent('https://example.com/fleet')}`, { headers: { 'X-API-Key': 'conformance-test-key' } })
  ).json();
  const code = (made.result as string).split('/s/')[1];
  const hop = await fetch(`${b.url}/s/${code}`, { redirect: 'manual' });
  t.equal(hop.status, 302);
  t.equal(hop.headers.get('location'), 'https://example.com/fleet');
  await fetch(`${a.url}/s/${code}`, { redirect: 'manual' });
  const stats = await (await fetch(`${b.url}/api/tools/shortstats?code=${code}`, { headers: { 'X-API-Key': 'conformance-test-key' } })).json();
  t.equal(stats.result.clicks, 2, 'one click on each engine');
  const again = await (
    await fetch(`${b.url}/api/tools/tinyurl?url=${encodeURIComponent('https://example.com/fleet')}`, { headers: { 'X-API-Key': 'conformance-test-key' } })
  ).json();
  t.equal(again.result.split('/s/')[1], code, 'shortening the same URL on the other engine gives the same code');
});

/**
 * GET /api/admin/usage on SQLite and PostgreSQL: the admin token only, counts per key,
 * endpoint and day with their sums, the filters, and 400s naming the parameter.
 */
import t from 'tap';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

const { endpoints } = testEndpoints();
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const today = () => new Date().toISOString().slice(0, 10);
const FIGURES = ['requests_2xx', 'requests_3xx', 'requests_4xx', 'requests_5xx', 'bytes_out', 'prompt_tokens', 'completion_tokens', 'media_seconds'];
/** Entries without the figures beside `requests`: the shape callers had before them. */
const plain = (entries: Record<string, unknown>[]) => entries.map((e) => Object.fromEntries(Object.entries(e).filter(([name]) => !FIGURES.includes(name))));

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: usage per key, endpoint and day, filtered`, async (t) => {
    const served = await serve({ ...(await dialect.env(t)), ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { endpoints });
    t.teardown(() => served.close());
    const get = (path: string, headers: Record<string, string> = ADMIN) => fetch(served.url + path, { headers });
    const usage = async (query = '') => {
      const res = await get(`/api/admin/usage${query}`);
      t.equal(res.status, 200, query);
      return (await res.json()).result;
    };

    t.equal((await get('/api/admin/usage', {})).status, 403, 'no admin token');
    t.equal((await get('/api/admin/usage', { 'X-API-Key': TEST_KEY })).status, 403, 'an API key is not the admin token');

    const key = await served.engine.keys.create({ tier: 'personal', label: 'bot' });
    let bytes = 0;
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/test/one?text=a', { 'X-API-Key': key.key });
      t.equal(res.status, 200);
      bytes += (await res.arrayBuffer()).byteLength;
    }
    const own = await get('/checkapikey', { 'X-API-Key': key.key });
    t.equal(own.status, 200);
    bytes += (await own.arrayBuffer()).byteLength;
    for (let i = 0; i < 2; i++) t.equal((await get('/api/test/one?text=b', { 'X-API-Key': TEST_KEY })).status, 200);

    const all = await usage();
    const day = today();
    t.same(all.total, 6, "this instance's counts are written before the report is read");
    t.same(plain(all.rows), [
      { key_id: key.id, endpoint: 'GET /api/test/one', day, requests: 3 },
      { key_id: key.id, endpoint: 'GET /checkapikey', day, requests: 1 },
      { key_id: 'test', endpoint: 'GET /api/test/one', day, requests: 2 },
    ]);
    t.same(plain(all.by_key), [
      { key_id: key.id, tier: 'personal', label: 'bot', requests: 4 },
      { key_id: 'test', tier: 'test', label: null, requests: 2 },
    ]);
    t.same(plain(all.by_endpoint), [
      { endpoint: 'GET /api/test/one', requests: 5 },
      { endpoint: 'GET /checkapikey', requests: 1 },
    ]);
    t.same(plain(all.by_day), [{ day, requests: 6 }]);
    t.same(
      (await usage(`?key=${key.id}`)).totals,
      { requests_2xx: 4, requests_3xx: 0, requests_4xx: 0, requests_5xx: 0, bytes_out: bytes, prompt_tokens: 0, completion_tokens: 0, media_seconds: 0 },
      'answers by status class and the body bytes the client received',
    );
    t.same([all.from, all.to, all.truncated], [null, null, false]);

    t.equal((await usage(`?key=${key.id}`)).total, 4);
    t.equal((await usage('?endpoint=/api/test/one')).total, 5);
    t.equal((await usage(`?endpoint=${encodeURIComponent('GET /checkapikey')}&key=${key.id}`)).total, 1);
    t.equal((await usage(`?from=${day}&to=${day}`)).total, 6);
    t.equal((await usage('?to=2000-01-01')).total, 0);
    const cut = await usage('?limit=1');
    t.same([cut.rows.length, cut.truncated, cut.total], [1, true, 6]);

    for (const [query, param] of [
      ['?from=yesterday', 'from'],
      ['?to=2026-02-30', 'to'],
      ['?limit=0', 'limit'],
      ['?limit=many', 'limit'],
      ['?from=2026-11-02&to=2026-11-01', 'to'],
    ]) {
      const res = await get(`/api/admin/usage${query}`);
      const body = await res.json();
      t.equal(res.status, 400, query);
      t.equal(body.error, 'invalid_parameter', query);
      t.equal(body.details[0].param, param, query);
    }
  });
}

t.test('the OpenAPI document lists the filters', async (t) => {
  const served = await serve({}, { endpoints });
  t.teardown(() => served.close());
  const doc = await (await fetch(`${served.url}/openapi.json`)).json();
  const op = doc.paths['/api/admin/usage'].get;
  t.same(
    op.parameters.map((p: { name: string }) => p.name),
    ['key', 'endpoint', 'from', 'to', 'limit', 'format'],
  );
  t.same(op.security, [{ adminToken: [] }]);
});

/**
 * Built-in routes run through the same dispatcher as manifest endpoints: one 404/405
 * decision, the same envelopes, keys and rate limits; GET /checkapikey reports the
 * calling key's own record and usage (docs/using/built-in-routes.md).
 */
import t from 'tap';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const { endpoints } = testEndpoints();
const dataDir = tempDataDir();
let served = await serve({ DATA_DIR: dataDir, TEST_KEY_RPM: '50', PERSONAL_KEY_RPM: '70' }, { endpoints });
t.teardown(() => served.close());
const get = (path: string, init: RequestInit = {}) => fetch(served.url + path, init);

t.test('/checkapikey: the shared test key', async (t) => {
  const res = await get(`/checkapikey?apikey=${TEST_KEY}`);
  t.equal(res.status, 200);
  const body = await res.json();
  t.same(body.result, {
    tier: 'test',
    label: null,
    rules: { rpm: null, daily: null, expires_at: null, allow: null, ips: null },
    limit_per_minute: 50,
    remaining: 49,
    requests_today: 1,
    requests_total: 1,
    daily_quota: null,
    created_at: null,
  });
  t.equal(res.headers.get('ratelimit-remaining'), '49');
});

t.test('/checkapikey and /api/checkapikey: a personal key, its usage counted across endpoints', async (t) => {
  const key = await served.engine.keys.create({ tier: 'personal', label: 'my bot' });
  const headers = { 'X-API-Key': key.key };
  for (let i = 0; i < 3; i++) t.equal((await get('/api/test/one?text=a', { headers })).status, 200);
  t.equal((await get('/api/test/one', { headers })).status, 400, 'a refused param still counts: the request was admitted');
  const res = await get('/api/checkapikey', { headers: { Authorization: `Bearer ${key.key}` } });
  const text = await res.text();
  t.same(JSON.parse(text).result, {
    tier: 'personal',
    label: 'my bot',
    rules: { rpm: null, daily: null, expires_at: null, allow: null, ips: null },
    limit_per_minute: 70,
    remaining: 65,
    requests_today: 5,
    requests_total: 5,
    daily_quota: null,
    created_at: key.createdAt,
  });
  t.notMatch(text, key.key, 'never the key');
  t.notMatch(text, /"hash"|"id"/, 'never its hash or id');

  // counts survive a restart (written at close) and keep adding up
  await served.close();
  served = await serve({ DATA_DIR: dataDir, TEST_KEY_RPM: '50', PERSONAL_KEY_RPM: '70' }, { endpoints });
  const again = await (await get('/checkapikey', { headers })).json();
  t.match(again.result, { requests_today: 6, requests_total: 6 });
});

t.test('/checkapikey needs a valid key', async (t) => {
  t.match(await (await get('/checkapikey')).json(), { status: 401, error: 'missing_api_key' });
  t.match(await (await get('/checkapikey?apikey=nope')).json(), { status: 401, error: 'invalid_api_key' });
});

t.test('one 404 and one 405 for built-ins and manifests alike', async (t) => {
  for (const [method, path, allow] of [
    ['POST', '/health', 'GET, HEAD'],
    ['DELETE', '/files/abc.png', 'GET, HEAD'],
    ['GET', '/api/test/secret', 'POST'],
    ['PUT', '/api/admin/keys', 'POST, GET, HEAD'],
  ] as const) {
    const res = await get(path, { method });
    t.equal(res.status, 405, `${method} ${path}`);
    t.equal(res.headers.get('allow'), allow);
    t.match(await res.json(), { status: 405, success: false, error: 'method_not_allowed' });
  }
  const missing = await get('/nope');
  t.equal(missing.status, 404);
  t.match(await missing.json(), { error: 'not_found' });
});

t.test('auth: key built-ins are rate limited like endpoints; auth: none ones are not keyed', async (t) => {
  const listing = await get(`/api/admin/endpoints?apikey=${TEST_KEY}`);
  t.ok(listing.headers.get('ratelimit-limit'));
  t.equal((await get('/api/admin/endpoints')).status, 401);
  const health = await get('/health');
  t.equal(health.headers.get('ratelimit-limit'), null);
  t.match(await health.json(), { status: 'ok', version: '3.0.4' });
});

t.test("the listing carries the built-in table with each route's auth", async (t) => {
  const { result } = await (await get(`/api/admin/endpoints?apikey=${TEST_KEY}`)).json();
  t.equal(result.total, endpoints.length, 'endpoints are still the manifests');
  const byPath = new Map(result.builtins.map((b: { method: string; path: string; auth: string }) => [`${b.method} ${b.path}`, b.auth]));
  t.equal(byPath.get('GET /health'), 'none');
  t.equal(byPath.get('GET /checkapikey'), 'key');
  t.equal(byPath.get('POST /api/admin/keys'), 'admin');
  t.equal(byPath.get('GET /files/:name'), 'none');
  t.equal(byPath.get('GET /docs/:file'), undefined, 'assets are not listed');
});

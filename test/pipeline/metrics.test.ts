/** GET /metrics of a running engine: counters move with real requests and upstream calls. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { TEST_METRICS_TOKEN } from '../support/tokens.js';

// a local upstream: /count answers JSON, /slow fails with 500 for q=fail and answers too late for q=late
const upstreamServer = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://x');
  if (url.pathname === '/slow' && url.searchParams.get('q') === 'late') {
    const timer = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"items":[]}'), 6000);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  if (url.pathname === '/slow' && url.searchParams.get('q') === 'fail') {
    res.writeHead(500).end('broken');
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count: 7, items: [1] }));
});
await new Promise<void>((resolve) => upstreamServer.listen(0, '127.0.0.1', resolve));
t.teardown(() => upstreamServer.close());
const base = `http://127.0.0.1:${(upstreamServer.address() as AddressInfo).port}`;

const { endpoints, upstream } = testEndpoints();
// The shared test registry gives /api/test/slow 400 ms; on a loaded machine a retried 500 can
// outlast that and count as a timeout. Here the retries get room, and "late" is later still.
const slow = endpoints.find((e) => e.path === '/api/test/slow')!;
slow.limits = { ...slow.limits, timeoutMs: 2500 };
const served = await serve({}, { endpoints, upstreamSpecs: upstream(base) });
t.teardown(() => served.close());

/** One sample's value from the exposition text (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    const m = /^([a-z_:]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return 0;
}

const scrape = async (init?: RequestInit) => {
  const res = await fetch(`${served.url}/metrics`, init);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

t.test('requests are counted by path template and status, unknown paths as unmatched', async (t) => {
  const before = (await scrape()).text;
  t.equal((await fetch(`${served.url}/api/test/one?text=hi&apikey=${TEST_KEY}`)).status, 200);
  t.equal((await fetch(`${served.url}/api/test/one?apikey=${TEST_KEY}`)).status, 400);
  t.equal((await fetch(`${served.url}/api/no/such/thing-${Date.now()}?apikey=${TEST_KEY}`)).status, 404);
  const { status, type, text } = await scrape();
  t.equal(status, 200);
  t.match(type, /^text\/plain; version=0\.0\.4/);
  const moved = (labels: Record<string, string>) =>
    sample(text, 'manifold_http_requests_total', labels) - sample(before, 'manifold_http_requests_total', labels);
  t.equal(moved({ category: 'fun', endpoint: '/api/test/one', status: '200' }), 1);
  t.equal(moved({ category: 'fun', endpoint: '/api/test/one', status: '400' }), 1);
  t.equal(moved({ category: 'none', endpoint: 'unmatched', status: '404' }), 1);
  t.equal(moved({ category: 'fun', endpoint: '/api/test/one', class: '4xx' }), 1, 'the status class beside the status');
  t.equal(
    sample(text, 'manifold_http_request_duration_seconds_count', { category: 'fun', endpoint: '/api/test/one', class: '2xx' }),
    1,
    'durations by status class',
  );
  t.equal(sample(text, 'manifold_http_request_duration_seconds_count', { category: 'fun', endpoint: '/api/test/one', class: '4xx' }), 1);
  t.notMatch(text, /thing-\d+/, 'no raw URL among the labels');
  t.match(text, /^process_cpu_user_seconds_total /m, 'default process metrics');
  t.match(text, /^nodejs_heap_size_used_bytes /m);
});

t.test('upstream calls are counted by upstream and outcome', async (t) => {
  const before = (await scrape()).text;
  t.equal((await fetch(`${served.url}/api/test/cached?q=m${Date.now()}&apikey=${TEST_KEY}`)).status, 200);
  t.equal((await fetch(`${served.url}/api/test/slow?q=fail&apikey=${TEST_KEY}`)).status, 502);
  t.equal((await fetch(`${served.url}/api/test/slow?q=late&apikey=${TEST_KEY}`)).status, 504);
  const { text } = await scrape();
  const moved = (outcome: string) =>
    sample(text, 'manifold_upstream_requests_total', { upstream: 'local', outcome }) -
    sample(before, 'manifold_upstream_requests_total', { upstream: 'local', outcome });
  t.equal(moved('ok'), 1);
  t.equal(moved('error'), 1, 'one failed call, however many retries it made');
  t.equal(moved('timeout'), 1, 'the endpoint timeout (2.5 s) passed first');
});

t.test('scrapes are counted under the built-in route', async (t) => {
  await scrape();
  const { text } = await scrape();
  t.ok(sample(text, 'manifold_http_requests_total', { category: 'builtin', endpoint: '/metrics', status: '200' }) >= 1);
});

t.test('worker pools report running and waiting tasks, and what they hold at most, once started', async (t) => {
  t.notMatch((await scrape()).text, /manifold_pool_tasks\{pool="probe"/);
  served.engine.scope.own('probe', () => ({}), { stats: () => ({ active: 2, queued: 5, workers: 2, queueLimit: 16 }) });
  t.teardown(() => served.engine.scope.release('probe'));
  const { text } = await scrape();
  t.equal(sample(text, 'manifold_pool_tasks', { pool: 'probe', state: 'active' }), 2);
  t.equal(sample(text, 'manifold_pool_tasks', { pool: 'probe', state: 'queued' }), 5);
  t.equal(sample(text, 'manifold_pool_capacity', { pool: 'probe', kind: 'workers' }), 2);
  t.equal(sample(text, 'manifold_pool_capacity', { pool: 'probe', kind: 'queue' }), 16);
});

t.test('key usage is counted by tier and status class, never by key', async (t) => {
  const before = (await scrape()).text;
  const key = await served.engine.keys.create({ tier: 'personal', label: 'metrics' });
  t.equal((await fetch(`${served.url}/api/test/one?text=hi`, { headers: { 'X-API-Key': key.key } })).status, 200);
  t.equal((await fetch(`${served.url}/api/test/one?text=hi&apikey=${TEST_KEY}`)).status, 200);
  t.equal((await fetch(`${served.url}/api/test/one?apikey=${TEST_KEY}`)).status, 400);
  t.equal((await fetch(`${served.url}/api/test/one?apikey=wrong-key`)).status, 401);
  const { text } = await scrape();
  const moved = (labels: Record<string, string>) => sample(text, 'manifold_key_requests_total', labels) - sample(before, 'manifold_key_requests_total', labels);
  t.equal(moved({ tier: 'personal', class: '2xx' }), 1);
  t.equal(moved({ tier: 'test', class: '2xx' }), 1);
  t.equal(moved({ tier: 'test', class: '4xx' }), 1, 'a refused request with a good key counts; an unknown key has no tier');
  t.notOk(text.includes(key.key), 'the key is nowhere in the exposition');
  t.notOk(text.includes(TEST_KEY));
});

t.test('result-cache lookups are counted: hits, shared computations and misses', async (t) => {
  const before = (await scrape()).text;
  const q = `c${Date.now()}`;
  t.equal((await fetch(`${served.url}/api/test/cached?q=${q}&apikey=${TEST_KEY}`)).status, 200);
  t.equal((await fetch(`${served.url}/api/test/cached?q=${q}&apikey=${TEST_KEY}`)).status, 200);
  const { text } = await scrape();
  const moved = (outcome: string) =>
    sample(text, 'manifold_result_cache_lookups_total', { outcome }) - sample(before, 'manifold_result_cache_lookups_total', { outcome });
  t.equal(moved('miss'), 1);
  t.equal(moved('hit'), 1);
});

t.test('METRICS_TOKEN: a bearer token is required', async (t) => {
  const guarded = await serve({ METRICS_TOKEN: TEST_METRICS_TOKEN }, { endpoints, upstreamSpecs: upstream(base) });
  t.teardown(() => guarded.close());
  const none = await fetch(`${guarded.url}/metrics`);
  t.equal(none.status, 403);
  t.match(await none.json(), { success: false, error: 'forbidden' });
  t.equal((await fetch(`${guarded.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status, 403);
  const ok = await fetch(`${guarded.url}/metrics`, { headers: { Authorization: `Bearer ${TEST_METRICS_TOKEN}` } });
  t.equal(ok.status, 200);
  const text = await ok.text();
  t.match(text, /^# TYPE manifold_http_requests_total counter/m);
  // its own registry: the other engine's counts are not here
  t.equal(sample(text, 'manifold_upstream_requests_total', { upstream: 'local', outcome: 'ok' }), 0);
});

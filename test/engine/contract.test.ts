/** The HTTP contract of docs/using/contract.md, exercised on a small registry of test manifests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from './test-endpoints.js';
import { compiledSchemaCount } from '../../engine/catalog/params.js';
import type { Logger } from '../../engine/platform/log.js';

// a local upstream: /slow answers after 1.5 s, /count counts its calls
let calls = 0;
const upstream = http.createServer((req, res) => {
  if (req.url?.startsWith('/slow')) setTimeout(() => res.end(JSON.stringify({ items: ['late'] })), 1500);
  else res.end(JSON.stringify({ count: ++calls }));
});
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

const before = compiledSchemaCount();
const { endpoints, upstream: specs } = testEndpoints();
const lines: string[] = [];
const logger: Logger = { info: (f) => lines.push(JSON.stringify(f)), error: (f) => lines.push(JSON.stringify(f)) };
const served = await serve({ TEST_KEY_RPM: '1000', LOG_REQUESTS: '1' }, { endpoints, upstreamSpecs: specs(upstreamBase), logger });
t.teardown(async () => {
  await served.close();
  upstream.closeAllConnections();
  upstream.close();
});

const get = (path: string, init: RequestInit = {}) => fetch(served.url + path, init);
const key = `apikey=${TEST_KEY}`;

t.test('404 for an unknown path, with envelope and request id', async (t) => {
  const res = await get(`/api/nope?${key}`);
  t.equal(res.status, 404);
  t.match(await res.json(), { status: 404, success: false, creator: 'Manifold', error: 'not_found', message: String });
  t.ok(res.headers.get('x-request-id'));
});

t.test('X-Request-Id is echoed when the client sends one', async (t) => {
  const res = await get(`/api/test/one?${key}&text=a`, { headers: { 'X-Request-Id': 'client-id-123' } });
  t.equal(res.headers.get('x-request-id'), 'client-id-123');
});

t.test('405 with Allow when the path exists for another method', async (t) => {
  // a POST endpoint with a secret param does not take GET: the secret would sit in the URL
  const res = await get(`/api/test/secret?${key}&word=alpha`);
  t.equal(res.status, 405);
  t.equal(res.headers.get('allow'), 'POST');
  t.match(await res.json(), { error: 'method_not_allowed', message: 'Use POST for this path (its word parameter is a secret, which must not sit in a URL)' });
  const del = await get(`/api/test/echo?${key}`, { method: 'DELETE' });
  t.equal(del.status, 405);
  t.equal(del.headers.get('allow'), 'POST, GET, HEAD');
});

t.test('a POST endpoint also answers GET with its params in the query, as clients of this genre call it', async (t) => {
  const res = await get(`/api/test/echo?${key}&word=beta`);
  t.equal(res.status, 200);
  t.same((await res.json()).result, { word: 'beta', n: 2 });
  const missing = await get(`/api/test/echo?${key}`);
  t.equal(missing.status, 400, 'validated as the POST is');
  t.match(await missing.json(), { error: 'missing_parameter' });
  const head = await get(`/api/test/echo?${key}&word=alpha`, { method: 'HEAD' });
  t.equal(head.status, 200);
});

t.test('POST with a JSON body, key in the body, defaults and coercion', async (t) => {
  const res = await get('/api/test/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apikey: TEST_KEY, word: 'beta' }),
  });
  t.equal(res.status, 200);
  t.same((await res.json()).result, { word: 'beta', n: 2 });
});

t.test('415 for a body type the endpoint does not take', async (t) => {
  const res = await get(`/api/test/echo?${key}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'word=alpha' });
  t.equal(res.status, 415);
  t.match(await res.json(), { error: 'unsupported_media_type' });
});

t.test('413 for a body over the endpoint limit', async (t) => {
  const res = await get(`/api/test/echo?${key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ word: 'alpha', pad: 'x'.repeat(500) }),
  });
  t.equal(res.status, 413);
  t.match(await res.json(), { error: 'payload_too_large' });
});

t.test('400 for malformed JSON', async (t) => {
  const res = await get(`/api/test/echo?${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"word": ' });
  t.equal(res.status, 400);
  t.match(await res.json(), { error: 'invalid_body', details: [{ param: 'body' }] });
});

t.test('400 invalid_parameter lists the allowed values of an enum', async (t) => {
  const res = await get('/api/test/echo', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-API-Key': TEST_KEY },
    body: JSON.stringify({ word: 'gamma' }),
  });
  const body = await res.json();
  t.equal(res.status, 400);
  t.match(body, { error: 'invalid_parameter', details: [{ param: 'word' }] });
  t.match(body.message, /alpha, beta/);
});

t.test('keys from headers: X-API-Key and Authorization: Bearer', async (t) => {
  t.equal((await get('/api/test/one?text=a', { headers: { 'X-API-Key': TEST_KEY } })).status, 200);
  t.equal((await get('/api/test/one?text=a', { headers: { Authorization: `Bearer ${TEST_KEY}` } })).status, 200);
  t.equal((await get('/api/test/one?text=a', { headers: { Authorization: 'Bearer wrong' } })).status, 401);
});

t.test('param aliases: query= for q=', async (t) => {
  const res = await get(`/api/test/cached?${key}&q=alias-check`);
  t.equal(res.status, 200);
});

t.test("resultAlso: the same result also where the genre's clients read it, and documented there", async (t) => {
  // the dataset answers one of its items; the second place holds the very same value
  const listed = await (await get(`/api/test/listed?${key}`)).json();
  t.match(listed, { status: 200, success: true, creator: 'Manifold', result: { word: String } });
  t.same(listed.results, listed.result);
  const nested = await (await get(`/api/test/listed-data?${key}`)).json();
  t.match(nested, { status: 200, success: true, result: { word: String } });
  t.same(nested.results, { data: nested.result });
  t.equal(nested.word, nested.result.word, 'a field of the result at the top (word=word)');
  t.equal(nested.message, nested.result.word, 'message=word');
  t.notOk('absent' in nested, 'a field the result lacks is left out');
  const plain = await (await get(`/api/test/open`)).json();
  t.notOk('results' in plain, 'other endpoints answer result alone');
  const openapi = await (await get('/openapi.json')).json();
  const schema = openapi.paths['/api/test/listed-data'].get.responses['200'].content['application/json'].schema;
  t.ok(schema.allOf[1].properties.results.properties.data, 'OpenAPI documents results.data');
});

t.test("/as/<host>: the same routes, answered in that host's dialect where the manifest has one", async (t) => {
  const word = async (path: string) => (await (await get(path)).json()).result?.word;
  t.equal(await word(`/api/test/dialect?${key}`), 'alpha', 'the plain base: the default');
  t.equal(await word(`/as/api.gifted.co.ke/api/test/dialect?${key}`), 'beta', "the gifted dialect's value");
  t.equal(await word(`/as/API.GIFTEDTECH.CO.KE/api/test/dialect?${key}`), 'beta', 'the host in any case');
  t.equal(await word(`/as/api.gifted.co.ke/api/test/dialect?word=alpha&${key}`), 'alpha', 'what the call sends wins');
  t.equal(await word(`/as/api.princetechn.com/api/test/dialect?${key}`), 'alpha', 'a host whose dialect the manifest does not name: the default');
  t.equal((await get(`/as/api.gifted.co.ke/checkapikey?${key}`)).status, 200, 'built-in routes too');
  const unknown = await get(`/as/example.com/api/test/dialect?${key}`);
  t.equal(unknown.status, 404);
  t.match(await unknown.json(), { error: 'not_found', message: /example\.com.*api\.gifted\.co\.ke/ });
});

t.test('503 unavailable with the reason, and listed as such', async (t) => {
  const res = await get(`/api/test/needs-env?${key}`);
  t.equal(res.status, 503);
  const body = await res.json();
  t.match(body, { error: 'unavailable' });
  t.match(body.message, /SOME_UNSET_VARIABLE not set/);
  const listing = await (await get(`/api/admin/endpoints?${key}`)).json();
  const entry = listing.result.endpoints.find((e: { path: string }) => e.path === '/api/test/needs-env');
  t.match(entry, { available: false, unavailableReason: /SOME_UNSET_VARIABLE/ });
  t.equal(listing.result.total, endpoints.length);
});

t.test('504 when the upstream is slower than the endpoint timeout', async (t) => {
  const res = await get(`/api/test/slow?${key}&q=late`);
  t.equal(res.status, 504);
  t.match(await res.json(), { error: 'upstream_timeout' });
});

t.test('503 overloaded when the concurrency gate and its queue are full', async (t) => {
  const [a, b] = await Promise.all([get(`/api/test/slow?${key}&q=1`), get(`/api/test/slow?${key}&q=2`)]);
  t.same([a.status, b.status].sort(), [503, 504]);
  const overloaded = a.status === 503 ? a : b;
  t.match(await overloaded.json(), { error: 'overloaded' });
  t.ok(overloaded.headers.get('retry-after'));
});

t.test('cached endpoints share one upstream call (single-flight and TTL)', async (t) => {
  const start = calls;
  const answers = await Promise.all([1, 2, 3, 4].map(() => get(`/api/test/cached?${key}&q=same`).then((r) => r.json())));
  const again = await (await get(`/api/test/cached-alias?${key}&q=same`)).json();
  t.equal(calls - start, 1, 'one upstream call');
  t.same(new Set([...answers, again].map((a) => a.result)).size, 1);
});

t.test('a failing handler is a 500 envelope without a stack', async (t) => {
  const res = await get(`/api/test/broken?${key}`);
  t.equal(res.status, 500);
  const text = await res.text();
  t.match(JSON.parse(text), { error: 'internal_error' });
  t.notMatch(text, /at .*\.ts:\d+/);
});

t.test('family items share one compiled param validator', async (t) => {
  const familyMembers = endpoints.filter((e) => e.path.startsWith('/api/test/') && ['one', 'two', 'three'].includes(e.path.split('/').pop()!));
  t.equal(familyMembers.length, 3);
  // at most 5 distinct param schemas among 9 endpoints (the family shares one; two take no params)
  t.ok(compiledSchemaCount() - before <= 5, `compiled ${compiledSchemaCount() - before} schemas`);
  const res = await get(`/api/test/two?${key}&text=hi`);
  t.equal((await res.json()).result, 2);
});

t.test('health without a key', async (t) => {
  const res = await get('/health');
  t.match(await res.json(), { status: 'ok', version: '3.0.4', ytdlp: { path: String } }, 'and which yt-dlp the downloaders run (version and age, or why not)');
});

t.test('the API key never reaches a log line', async (t) => {
  await get(`/api/test/one?text=a&apikey=${TEST_KEY}`);
  const all = lines.join('\n');
  t.notMatch(all, TEST_KEY);
  t.match(all, /apikey=\[redacted\]/);
});

t.test('built-in routes answer 405 with Allow too', async (t) => {
  const res = await get('/health', { method: 'POST' });
  t.equal(res.status, 405);
  t.match(res.headers.get('allow'), /GET/);
  t.match(await res.json(), { error: 'method_not_allowed' });
});

t.test('params marked secret are redacted from the log line', async (t) => {
  const { redactUrl } = await import('../../engine/platform/auth/redact.js');
  t.equal(
    redactUrl('/api/checker/card?number=4111111111111111&apikey=k&x=1', new Set(['number'])),
    '/api/checker/card?number=[redacted]&apikey=[redacted]&x=1',
  );
});

t.test('public endpoints need no key and count against a per-address budget', async (t) => {
  const res = await get('/api/test/open');
  t.equal(res.status, 200);
  t.ok(res.headers.get('ratelimit-limit'), 'still rate limited');
});

t.test('a binary is found on PATH or through its *_PATH override', async (t) => {
  const { onPath } = await import('../../engine/core/binaries.js');
  t.ok(onPath('node', { PATH: process.env.PATH! }));
  t.notOk(onPath('yt-dlp', { PATH: '/nonexistent' }));
  t.ok(onPath('yt-dlp', { PATH: '/nonexistent', YTDLP_PATH: process.execPath }), 'YTDLP_PATH names it');
  t.notOk(onPath('yt-dlp', { PATH: process.env.PATH!, YTDLP_PATH: '/nonexistent/yt-dlp' }), 'a wrong override is not papered over by PATH');
});

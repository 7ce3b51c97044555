/** The access log of a running engine: one pino line per request, no key in any spelling. */
import t from 'tap';
import { createLogger } from '../../engine/platform/log.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const lines: string[] = [];
const logger = createLogger({ level: 'info', destination: (line) => lines.push(line) });
const { endpoints, upstream } = testEndpoints();
const served = await serve({ LOG_REQUESTS: '1' }, { endpoints, upstreamSpecs: upstream('http://127.0.0.1:9'), logger });
t.teardown(() => served.close());

/** The log lines one request produced. */
async function logged(path: string, init: RequestInit = {}): Promise<{ status: number; body: string; lines: string[] }> {
  const start = lines.length;
  const res = await fetch(served.url + path, init);
  const body = await res.text();
  return { status: res.status, body, lines: lines.slice(start) };
}

const OTHER = 'Zq7vK2pLx9Wm4-not-a-key';

t.test('one line per request with the documented fields', async (t) => {
  const { status, lines } = await logged(`/api/test/one?text=a&apikey=${TEST_KEY}`, { headers: { 'X-Request-Id': 'req-1' } });
  t.equal(status, 200);
  t.equal(lines.length, 1);
  const line = JSON.parse(lines[0]!);
  t.match(line, { level: 'info', requestId: 'req-1', method: 'GET', url: '/api/test/one?text=a&apikey=[redacted]', status: 200, ms: Number });
  t.match(line.time, /Z$/);
});

t.test('who asked: client address, key id and tier, user agent — never the key', async (t) => {
  const created = await served.engine.keys.create({ tier: 'personal', label: 'log' });
  const personal = JSON.parse((await logged('/api/test/one?text=a', { headers: { 'X-API-Key': created.key, 'User-Agent': 'my-bot/2.1' } })).lines[0]!);
  t.match(personal, { ip: '127.0.0.1', keyId: created.id, tier: 'personal', userAgent: 'my-bot/2.1' });
  t.notOk(JSON.stringify(personal).includes(created.key), 'not the key');
  const shared = JSON.parse((await logged(`/api/test/one?text=a&apikey=${TEST_KEY}`)).lines[0]!);
  t.match(shared, { keyId: 'test', tier: 'test' });
  const refused = JSON.parse((await logged(`/api/test/one?text=a&apikey=${OTHER}`)).lines[0]!);
  t.equal(refused.status, 401);
  t.equal(refused.keyId, undefined, 'an unknown key has no id');
  t.equal(refused.ip, '127.0.0.1');
  const long = JSON.parse((await logged(`/api/test/one?text=a&apikey=${TEST_KEY}`, { headers: { 'User-Agent': 'x'.repeat(1000) } })).lines[0]!);
  t.equal(long.userAgent.length, 256, 'a user agent is cut at 256 characters');
  const pasted = (await logged('/api/test/one?text=a', { headers: { 'X-API-Key': created.key, 'User-Agent': `bot key=${created.key}` } })).lines[0]!;
  t.notOk(pasted.includes(created.key), 'a key pasted into the user agent is blanked');
});

t.test('no spelling of a key reaches the log', async (t) => {
  const spellings = [
    `apikey[]=${OTHER}`,
    `q=1;apikey=${OTHER}`,
    `APIKEY=${OTHER}`,
    `api_key=${OTHER}`,
    `apiKey=${OTHER}`,
    `key=${OTHER}`,
    `token=${OTHER}`,
    `api%6Bey=${OTHER}`,
    `apikey=${OTHER}&apikey=${OTHER}`,
    `url=https://x.test/?apikey=${OTHER}`,
    `url=${encodeURIComponent(`https://x.test/?v=1&apikey=${OTHER}`)}`,
    `url=${encodeURIComponent(encodeURIComponent(`https://x.test/?v=1&apikey=${OTHER}`))}`,
    `text=${TEST_KEY}&apikey=${TEST_KEY}`, // the presented key, pasted into another parameter too
  ];
  for (const query of spellings) {
    const { lines } = await logged(`/api/test/one?${query}`);
    t.equal(lines.length, 1, query);
    t.notOk(lines[0]!.includes(OTHER) || lines[0]!.includes(TEST_KEY), `${query} → ${lines[0]}`);
  }
  const { lines: viaHeader } = await logged(`/api/test/one?text=${TEST_KEY}`, { headers: { Authorization: `Bearer ${TEST_KEY}` } });
  t.notOk(viaHeader[0]!.includes(TEST_KEY), 'a header key pasted into the query');
});

t.test('an internal error logs its stack on the server only', async (t) => {
  const { status, body, lines } = await logged(`/api/test/broken?apikey=${TEST_KEY}`);
  t.equal(status, 500);
  t.notMatch(body, /at .*\.ts:\d+/);
  const error = lines.map((l) => JSON.parse(l)).find((l) => l.level === 'error');
  t.match(error, { requestId: String, path: '/api/test/broken', err: { type: String, message: String, stack: /\n\s+at / } });
  t.notOk(lines.join('\n').includes(TEST_KEY));
});

t.test('LOG_REQUESTS=0 turns the access log off', async (t) => {
  const quiet: string[] = [];
  const other = await serve(
    { LOG_REQUESTS: '0' },
    { endpoints, upstreamSpecs: upstream('http://127.0.0.1:9'), logger: createLogger({ destination: (l) => quiet.push(l) }) },
  );
  t.teardown(() => other.close());
  t.equal((await fetch(`${other.url}/api/test/one?text=a&apikey=${TEST_KEY}`)).status, 200);
  t.same(quiet, []);
});

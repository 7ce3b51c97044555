/**
 * Redis that stops answering: a real redis-server frozen with SIGSTOP (its port keeps
 * accepting, nothing replies) and resumed with SIGCONT, and a port that accepts and
 * never answers. By default (RATE_LIMIT_ON_REDIS_FAILURE=local) keyed requests keep
 * answering, each instance holding its share of every budget, and the shared budget
 * applies again once Redis is back; with `deny` they get 503 unavailable fast. The
 * result cache computes without Redis, nothing emits an unhandled 'error', connection
 * trouble is logged once per change of state, and both recover by themselves.
 */
import net from 'node:net';
import t from 'tap';
import { Redis } from 'ioredis';
import { TEST_KEY_ID } from '../../engine/platform/auth/authenticate.js';
import { createResultCache } from '../../engine/platform/cache.js';
import { DEFAULT_KEY_PREFIX } from '../../engine/platform/limits/redis-rate-limiter.js';
import type { Logger } from '../../engine/platform/log.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { startRedisServer } from './redis-server.js';

const { endpoints, upstream } = testEndpoints();
const options = { endpoints, upstreamSpecs: upstream('http://127.0.0.1:9') };
/** What the issue promises: an unresponsive Redis answers 503 within 2 s (the design aims at 1 s). */
const BOUND_MS = 2000;

const server = await startRedisServer(t, t.testdir());
const missing = 'redis-server is not on PATH (apt-get install -y redis-server)';
if (!server && process.env.CI) t.fail(missing);

// ioredis prints "[ioredis] Unhandled error event" through console.error when a client has no listener
const unhandled: string[] = [];
const consoleError = console.error;
console.error = (...args: unknown[]) => void unhandled.push(args.map(String).join(' '));
const onUncaught = (error: unknown) => unhandled.push(`uncaught: ${String(error)}`);
process.on('uncaughtException', onUncaught);
process.on('unhandledRejection', onUncaught);
t.teardown(() => {
  console.error = consoleError;
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

/** A logger that keeps its lines. */
function recorder(): Logger & { lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { lines, info: (f) => void lines.push({ level: 'info', ...f }), error: (f) => void lines.push({ level: 'error', ...f }) };
}

async function timed(url: string): Promise<{ status: number; ms: number; body: { error?: string; message?: string } }> {
  const start = performance.now();
  const res = await fetch(url);
  const body = (await res.json()) as { error?: string; message?: string };
  return { status: res.status, ms: performance.now() - start, body };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll until `check` holds (recovery is by itself, but not instant). */
async function eventually(check: () => Promise<boolean>, withinMs: number): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < withinMs) {
    if (await check()) return performance.now() - start;
    await sleep(100);
  }
  return -1;
}

t.test(
  "RATE_LIMIT_ON_REDIS_FAILURE=local: a frozen redis-server, keyed requests keep answering within each instance's share, then one shared budget again",
  { skip: server ? false : missing },
  async (t) => {
    const env = { REDIS_URL: server!.url, TEST_KEY_RPM: '20' };
    const [a, b] = await Promise.all([serve(env, options), serve(env, options)]);
    t.teardown(() => Promise.all([a.close(), b.close()]));
    const on = (s: typeof a) => fetch(`${s.url}/api/test/one?text=a&apikey=${TEST_KEY}`);
    // in this order, each answer implies the other instance's heartbeat was counted (a heartbeat
    // goes before any hit on an instance's connection, and the count comes back with every hit)
    const up = [await on(a), await on(b), await on(a)];
    t.same(
      up.map((r) => [r.status, r.headers.get('ratelimit-limit')]),
      Array(3).fill([200, '20']),
      'Redis up: the shared budget of 20',
    );

    server!.freeze();
    t.teardown(() => server!.thaw());
    // each instance's share is 20 / 2 instances = 10, and counts the hits it made through Redis: A 2, B 1
    const outage = async (s: typeof a, n: number) => {
      const answers = [];
      for (let i = 0; i < n; i++) answers.push(await on(s));
      return answers.map((r) => `${r.status} of ${r.headers.get('ratelimit-limit')}`);
    };
    const expect = (allowed: number, n: number) => Array.from({ length: n }, (_, i) => `${i < allowed ? 200 : 429} of 10`);
    t.same(await outage(a, 10), expect(8, 10), 'instance A, Redis frozen: the 8 left of its share, then 429 — never a 503');
    t.same(await outage(b, 10), expect(9, 10), 'instance B: its 9 left, then 429');
    const cachedAnswer = await fetch(`${a.url}/api/test/cached?text=x`, { headers: { 'X-API-Key': TEST_KEY } });
    t.equal(cachedAnswer.status, 429, 'a cached tool counts against the same share');

    server!.thaw();
    // back to the shared budget once a background PING is answered (made at the first request after
    // the circuit's cool-down): the limit each instance answers with says which applies
    for (const [name, s] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const polls: number[] = [];
      let back: Response | undefined;
      for (const started = performance.now(); performance.now() - started < 20_000;) {
        back = await on(s);
        if (back.headers.get('ratelimit-limit') === '20') break;
        polls.push(back.status);
        await sleep(100);
      }
      t.equal(back?.headers.get('ratelimit-limit'), '20', `instance ${name}: the shared budget applies again after SIGCONT`);
      t.ok(
        polls.every((status) => status === 429),
        `instance ${name}: its local share held until then (${polls.length} polls)`,
      );
    }
    // Redis holds the 3 hits from before the freeze, those of the commands that timed out while it was
    // frozen (Redis ran them on SIGCONT; they were answered locally) and the two polls that found it
    // back: what is left is shared exactly
    const inspect = new Redis(server!.url);
    t.teardown(() => inspect.quit());
    const held = await inspect.zcard(`${DEFAULT_KEY_PREFIX}key:${TEST_KEY_ID}`);
    t.ok(held >= 5 && held < 20, `the shared window holds ${held} hits`);
    const after = [];
    for (let i = 0; i < 20; i++) after.push(await on(i % 2 ? a : b));
    t.equal(after.filter((r) => r.status === 200).length, 20 - held, 'exactly what the shared window had left, across both instances');
    t.ok(
      after.every((r) => r.headers.get('ratelimit-limit') === '20'),
      'every answer on the shared budget',
    );
  },
);

t.test(
  'RATE_LIMIT_ON_REDIS_FAILURE=deny: a frozen redis-server, 503 within the bound, then recovery after SIGCONT',
  { skip: server ? false : missing },
  async (t) => {
    const logger = recorder();
    const served = await serve({ REDIS_URL: server!.url, RATE_LIMIT_ON_REDIS_FAILURE: 'deny' }, { ...options, logger });
    t.teardown(served.close);
    const url = `${served.url}/api/test/one?text=a&apikey=${TEST_KEY}`;
    t.equal((await timed(url)).status, 200, 'answers while Redis is up');

    server!.freeze();
    t.teardown(() => server!.thaw());
    const first = await timed(url);
    t.match(first, { status: 503, body: { error: 'unavailable', message: /rate-limit store.*unreachable/ } });
    t.ok(first.ms < BOUND_MS, `first request after the freeze answered in ${first.ms.toFixed(0)} ms`);
    const burst = await Promise.all(Array.from({ length: 20 }, () => timed(url)));
    t.ok(
      burst.every((r) => r.status === 503),
      '20 concurrent requests: all 503',
    );
    const slowest = Math.max(...burst.map((r) => r.ms));
    t.ok(slowest < BOUND_MS, `the slowest of them in ${slowest.toFixed(0)} ms`);
    // By now the circuit is open: no request waits for the 500 ms command timeout. Timed against
    // requests that never touch Redis (a 404), measured at the same moment: the machine may be loaded.
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const opened: number[] = [];
    const untouched: number[] = [];
    for (let i = 0; i < 5; i++) {
      const open = await timed(url);
      t.equal(open.status, 503);
      opened.push(open.ms);
      untouched.push((await timed(`${served.url}/no-such-path-${i}`)).ms);
    }
    t.ok(
      median(opened) < median(untouched) + 400,
      `with the circuit open a request fails at once (median ${median(opened).toFixed(0)} ms; a 404: ${median(untouched).toFixed(0)} ms)`,
    );
    // stay frozen past the socket timeout, so recovery also covers a replaced connection
    await sleep(6000);
    t.equal((await timed(url)).status, 503, 'still 503 after 6 s frozen');

    server!.thaw();
    const recovered = await eventually(async () => (await timed(url)).status === 200, 10_000);
    t.ok(recovered >= 0, `answers 200 again ${recovered.toFixed(0)} ms after SIGCONT`);

    const redisLines = logger.lines.filter((l) => String(l.msg).startsWith('redis'));
    const down = redisLines.filter((l) => l.level === 'error' && l.role === 'rate-limit store');
    t.ok(down.length >= 1 && down.length <= 2, `the outage is logged once per state (${down.map((l) => l.msg).join('; ')})`);
    t.ok(
      redisLines.some((l) => l.level === 'info' && l.role === 'rate-limit store'),
      'and so is the recovery',
    );
    t.notOk(
      redisLines.some((l) => 'stack' in l || 'err' in l),
      'no stack traces in the log',
    );
    t.notOk(JSON.stringify(logger.lines).includes(server!.url), 'the Redis URL is never logged');
  },
);

t.test('the result cache computes without a frozen Redis and caches again after it', { skip: server ? false : missing }, async (t) => {
  const cache = createResultCache({ redisUrl: server!.url });
  t.teardown(() => cache.close());
  let computed = 0;
  const compute = async () => ++computed;
  t.equal(await cache.wrap('k1', 60, compute), 1);
  await sleep(50); // the set is not awaited by wrap
  t.equal(await cache.wrap('k1', 60, compute), 1, 'a hit while Redis is up');

  server!.freeze();
  t.teardown(() => server!.thaw());
  const times: number[] = [];
  for (let i = 0; i < 6; i++) {
    const start = performance.now();
    t.equal(await cache.wrap('k2', 60, compute), computed, 'computed, never failed');
    times.push(performance.now() - start);
  }
  t.ok(Math.max(...times) < BOUND_MS / 2, `each call within the command timeout (${times.map((ms) => ms.toFixed(0)).join(', ')} ms)`);
  t.ok(times.at(-1)! < 100, 'and at once once the circuit is open');

  server!.thaw();
  let attempt = 0;
  const recovered = await eventually(async () => {
    const key = `k3-${attempt++}`; // a new key each time: an earlier attempt's late set must not count
    const value = await cache.wrap(key, 60, compute);
    await sleep(50);
    return (await cache.wrap(key, 60, compute)) === value;
  }, 10_000);
  t.ok(recovered >= 0, `caching again ${recovered.toFixed(0)} ms after SIGCONT`);
});

t.test('a port that accepts and never answers: 503 within the bound with deny, 200 with local; the cache is skipped', async (t) => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => void sockets.add(socket.on('error', () => {})));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const redisUrl = `redis://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
  const served = await serve({ REDIS_URL: redisUrl, RATE_LIMIT_ON_REDIS_FAILURE: 'deny' }, options);
  t.teardown(served.close);
  const url = `${served.url}/api/test/one?text=a&apikey=${TEST_KEY}`;
  const results = [];
  for (let i = 0; i < 5; i++) results.push(await timed(url));
  t.ok(
    results.every((r) => r.status === 503 && r.body.error === 'unavailable'),
    'every request 503 unavailable',
  );
  const slowest = Math.max(...results.map((r) => r.ms));
  t.ok(slowest < BOUND_MS, `answered within ${slowest.toFixed(0)} ms`);
  const local = await serve({ REDIS_URL: redisUrl }, options);
  t.teardown(local.close);
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push((await timed(`${local.url}/api/test/one?text=a&apikey=${TEST_KEY}`)).status);
  t.same(answers, Array(5).fill(200), 'with local (the default): every request answered');

  const cache = createResultCache({ redisUrl });
  t.teardown(() => cache.close());
  const start = performance.now();
  t.equal(await cache.wrap('k', 60, async () => 'fresh'), 'fresh');
  t.ok(performance.now() - start < BOUND_MS / 2, 'the cache gives up within the command timeout');
});

t.test('no unhandled error event or rejection', async (t) => {
  t.same(unhandled, []);
});

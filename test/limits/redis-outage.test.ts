/**
 * Redis that stops answering: a real redis-server frozen with SIGSTOP (its port keeps
 * accepting, nothing replies) and resumed with SIGCONT, and a port that accepts and
 * never answers. Keyed requests get 503 unavailable fast, the result cache computes
 * without Redis, nothing emits an unhandled 'error', connection trouble is logged once
 * per change of state, and both recover by themselves.
 */
import net from 'node:net';
import t from 'tap';
import { createResultCache } from '../../engine/cache.js';
import type { Logger } from '../../engine/log.js';
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

t.test('a frozen redis-server: 503 within the bound, then recovery after SIGCONT', { skip: server ? false : missing }, async (t) => {
  const logger = recorder();
  const served = await serve({ REDIS_URL: server!.url }, { ...options, logger });
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
});

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

t.test('a port that accepts and never answers: 503 within the bound; the cache is skipped', async (t) => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((socket) => void sockets.add(socket.on('error', () => {})));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    silent.close();
  });
  const redisUrl = `redis://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
  const served = await serve({ REDIS_URL: redisUrl }, options);
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

  const cache = createResultCache({ redisUrl });
  t.teardown(() => cache.close());
  const start = performance.now();
  t.equal(await cache.wrap('k', 60, async () => 'fresh'), 'fresh');
  t.ok(performance.now() - start < BOUND_MS / 2, 'the cache gives up within the command timeout');
});

t.test('no unhandled error event or rejection', async (t) => {
  t.same(unhandled, []);
});

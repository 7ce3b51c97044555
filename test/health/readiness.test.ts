/**
 * GET /health/live and GET /health/ready with a real PostgreSQL and a real Redis
 * (issue #19: "/health/ready turns 503 within 2 s of PostgreSQL or Redis stopping and
 * back within 2 s of their return"). Readiness asks each dependency at the moment of
 * the request, each check bounded by HEALTH_CHECK_TIMEOUT_MS, so the first answer
 * after an outage begins is already 503, and the first after PostgreSQL's return
 * is 200; Redis is polled for (its connection reconnects every 250 ms), with a bound.
 * The times measured are printed as comments; the assertions wait on events.
 */
import t, { type Test } from 'tap';
import { startPostgres } from '../support/postgres.js';
import { startRedisServer } from '../limits/redis-server.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const pg = await startPostgres(t);
const redis = await startRedisServer(t, t.testdir());
if (!redis) throw new Error('redis-server is not installed: apt-get install -y redis-server');
const served = await serve({ DATABASE_URL: await pg.newDatabase(), REDIS_URL: redis.url }, { endpoints: testEndpoints().endpoints });
t.teardown(() => served.close());

interface Ready {
  status: number;
  body: { status?: string; checks?: Record<string, { ok: boolean }>; error?: string; message?: string; details?: { dependency: string; problem: string }[] };
}
const ready = async (): Promise<Ready> => {
  const res = await fetch(`${served.url}/health/ready`);
  return { status: res.status, body: await res.json() };
};

/** Ask until `want` answers, at most `bound` ms (a bound for a broken build, not the figure measured); resolves with the time it took. */
async function until(want: number, bound: number): Promise<number> {
  const started = performance.now();
  for (;;) {
    const { status } = await ready();
    if (status === want) return performance.now() - started;
    if (performance.now() - started > bound) throw new Error(`/health/ready still ${status} after ${bound} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One sample of /metrics, by its name and labels as written; undefined when absent. */
const sample = async (series: string) => {
  const text = await (await fetch(`${served.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line && Number(line.split(' ').pop());
};
const upIn = (dependency: string) => sample(`manifold_dependency_up{dependency="${dependency}"}`);
/** The sample once it reads `want`, asking again for at most 10 s (a bound for a broken build); the last reading otherwise. */
async function eventually(read: () => Promise<unknown>, want: number): Promise<unknown> {
  const until = Date.now() + 10_000;
  let value = await read();
  while (value !== want && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
const circuit = (name: string, state: string) => sample(`manifold_circuit_state{circuit="${name}",state="${state}"}`);

t.test('liveness answers without asking any dependency', async (t) => {
  const res = await fetch(`${served.url}/health/live`);
  t.equal(res.status, 200);
  t.same(await res.json(), { status: 'ok' });
  t.equal(res.headers.get('cache-control'), 'no-store');
});

t.test('ready while the database, Redis and the job queue answer', async (t) => {
  const { status, body } = await ready();
  t.equal(status, 200);
  t.equal(body.status, 'ready');
  t.same(Object.keys(body.checks!).sort(), ['database', 'queue', 'redis']);
  t.ok(Object.values(body.checks!).every((c) => c.ok));
  // each scrape asks again; on a loaded machine one check can miss its HEALTH_CHECK_TIMEOUT_MS
  t.equal(await eventually(() => upIn('database'), 1), 1);
  t.equal(await eventually(() => upIn('redis'), 1), 1);
  t.equal(await circuit('rate-limit store', 'closed'), 1, 'the circuits in front of Redis are closed');
  t.equal(await circuit('result cache', 'closed'), 1);
});

/** Stop a dependency, then ask once: the answer, and how long it took (printed). */
async function stopAndAsk(t: Test, name: string, stop: () => Promise<void>): Promise<Ready> {
  await stop();
  const started = performance.now();
  const answer = await ready();
  t.comment(`${answer.status} ${Math.round(performance.now() - started)} ms after ${name} stopped`);
  return answer;
}

t.test('PostgreSQL stops: the next answer is 503 naming the database; its return: the next is 200', async (t) => {
  const down = await stopAndAsk(t, 'PostgreSQL', () => pg.stop());
  t.equal(down.status, 503);
  t.equal(down.body.error, 'not_ready');
  t.match(down.body.message, /database/);
  t.same(
    down.body.details!.map((d) => d.dependency),
    ['database'],
    'only the database failed',
  );
  t.equal(await upIn('database'), 0, 'manifold_dependency_up says so');
  t.equal(await upIn('redis'), 1);
  t.equal((await fetch(`${served.url}/health/live`)).status, 200, 'liveness is untouched');

  await pg.start();
  const back = performance.now();
  const up = await ready();
  t.comment(`200 ${Math.round(performance.now() - back)} ms after PostgreSQL accepted connections again`);
  t.equal(up.status, 200, 'the first answer after its return');
});

t.test('Redis stops: the next answer is 503 naming Redis and the job queue on it; back once it returns', async (t) => {
  const down = await stopAndAsk(t, 'Redis', () => redis.stop());
  t.equal(down.status, 503);
  t.same(down.body.details!.map((d) => d.dependency).sort(), ['queue', 'redis']);
  t.equal(await upIn('redis'), 0);
  // keyed requests go on (counted locally) while the rate-limit store's circuit opens after its failures
  for (let i = 0; i < 20 && (await circuit('rate-limit store', 'open')) !== 1; i++) await fetch(`${served.url}/api/test/one?text=a&apikey=${TEST_KEY}`);
  t.equal(await circuit('rate-limit store', 'open'), 1, 'manifold_circuit_state shows the open circuit');

  await redis.start();
  const tookMs = await until(200, 10_000);
  t.comment(`200 again ${Math.round(tookMs)} ms after Redis accepted connections again`);
  t.pass('ready again');
});

t.test('a request still works after both outages (the request path recovered as well)', async (t) => {
  const res = await fetch(`${served.url}/api/test/open`);
  t.equal(res.status, 200);
});

t.test('a worker instance answers both health routes and nothing public', async (t) => {
  const worker = await serve({ MANIFOLD_ROLE: 'worker', DATABASE_URL: await pg.newDatabase(), REDIS_URL: redis.url }, { endpoints: testEndpoints().endpoints });
  t.teardown(() => worker.close());
  t.equal((await fetch(`${worker.url}/health/live`)).status, 200);
  const res = await fetch(`${worker.url}/health/ready`);
  t.equal(res.status, 200, await res.text());
  t.equal((await fetch(`${worker.url}/api/test/open`)).status, 404);
});

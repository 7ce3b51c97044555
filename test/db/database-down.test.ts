/**
 * A database that cannot be reached answers 503 database_unavailable (with
 * Retry-After), never 500: the PostgreSQL server is stopped in the middle of the
 * test and started again. What needs no database (the shared test key on a
 * stateless endpoint, a personal key verified before: key-cache.test.ts) keeps working
 * meanwhile, and service resumes by itself.
 * A refused connection fails at once, and the circuit opens on the third in a row;
 * a server that accepts and never answers (frozen, or a port that swallows
 * connections) costs one request DATABASE_TIMEOUT_MS, then none: one timeout opens
 * it. One connection killed server-side costs no request but the one using it.
 */
import net from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import t, { type Test } from 'tap';
import { ApiError } from '../../engine/core/errors.js';
import { readyDatabase } from '../../engine/platform/db/database.js';
import { databaseUnavailable, isTimeout, isUnreachable } from '../../engine/platform/db/unavailable.js';
import { startPostgres } from '../support/postgres.js';
import { freePort } from '../support/free-port.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

const { endpoints } = testEndpoints();
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
/** The timeout the engines under test get, and the slack a shared 2-core machine needs on top. */
const TIMEOUT_MS = 3000;
const SLACK_MS = 3000;
/** An answer while the circuit is open: far below TIMEOUT_MS, what a request that waited would cost. */
const AT_ONCE_MS = 1500;

async function timed(call: () => Promise<Response>): Promise<{ res: Response; body: { error?: string }; ms: number }> {
  const started = performance.now();
  const res = await call();
  const body = await res.json();
  return { res, body, ms: Math.round(performance.now() - started) };
}

/**
 * The first call fails within the timeout, and opens the circuit; then five at once
 * all answer 503, and at most one of them (the probe, were the machine so slow the
 * cool-down passed) waits.
 */
async function failsFast(t: Test, call: () => Promise<Response>, what: string): Promise<{ first: number; open: number[] }> {
  const first = await timed(call);
  t.equal(first.res.status, 503, `${what}: 503`);
  t.equal(first.body.error, 'database_unavailable', what);
  t.ok(first.ms < TIMEOUT_MS + SLACK_MS, `${what}: the first answer within the timeout (${first.ms} ms)`);
  const open = await Promise.all(Array.from({ length: 5 }, () => timed(call)));
  t.same(
    open.map((o) => [o.res.status, o.body.error]),
    Array(5).fill([503, 'database_unavailable']),
    `${what}: 503 while the circuit is open`,
  );
  const fast = open.filter((o) => o.ms < AT_ONCE_MS).length;
  t.ok(fast >= 4, `${what}: answered at once while open (${open.map((o) => o.ms).join(', ')} ms)`);
  t.comment(`${what}: first 503 in ${first.ms} ms; while open ${open.map((o) => o.ms).join(', ')} ms`);
  return { first: first.ms, open: open.map((o) => o.ms) };
}

/** Calls `call` every 100 ms until it answers 200; how long that took. */
async function recovers(t: Test, call: () => Promise<Response>, what: string, withinMs: number): Promise<number> {
  const started = performance.now();
  let status = 0;
  while (performance.now() - started < withinMs) {
    const res = await call();
    await res.arrayBuffer();
    if ((status = res.status) === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const ms = Math.round(performance.now() - started);
  t.equal(status, 200, `${what}: back without a restart of the engine (${ms} ms)`);
  t.comment(`${what}: 200 again ${ms} ms after the server was back`);
  return ms;
}

const ENV = { ADMIN_TOKEN: TEST_ADMIN_TOKEN, DATABASE_TIMEOUT_MS: String(TIMEOUT_MS) };
const call = (base: string, path: string, headers: Record<string, string>) => fetch(base + path, { headers });
/** Circuit cool-down (2 s) + a probe that may wait the timeout + slack. */
const RECOVERY_MS = 2000 + TIMEOUT_MS + SLACK_MS;

t.test('PostgreSQL stopped mid-test: 503 database_unavailable, then service resumes', async (t) => {
  const postgres = await startPostgres(t);
  const served = await serve({ ...ENV, DATABASE_URL: await postgres.newDatabase() }, { endpoints });
  t.teardown(() => served.close());
  // an engine that has not touched its database yet when the server goes away
  const fresh = await serve({ ...ENV, DATABASE_URL: await postgres.newDatabase() }, { endpoints });
  t.teardown(() => fresh.close());
  const key = await served.engine.keys.create({ tier: 'personal' });
  const personal = () => call(served.url, '/api/test/one?text=a', { 'X-API-Key': key.key });
  t.equal((await personal()).status, 200, 'up');
  // made, never presented: this instance has not verified it, so its check needs the database
  const unseen = await served.engine.keys.create({ tier: 'personal' });
  const unverified = () => call(served.url, '/api/test/one?text=a', { 'X-API-Key': unseen.key });

  await postgres.stop();
  await failsFast(t, unverified, 'stopped server, a key not verified here');
  t.equal((await personal()).status, 200, 'a personal key verified before the outage answers from the cache (test/db/key-cache.test.ts)');
  for (const [what, res] of [
    ['a key not verified here (its check reads the database)', await unverified()],
    ['key management', await call(served.url, '/api/admin/keys', ADMIN)],
    ['the usage view', await call(served.url, '/api/admin/usage', ADMIN)],
    ['an engine opening its database during the outage', await call(fresh.url, '/api/admin/keys', ADMIN)],
  ] as const) {
    const body = await res.json();
    t.equal(res.status, 503, what);
    t.equal(body.error, 'database_unavailable', what);
    t.match(body.message, /database is unreachable/, what);
    t.equal(res.headers.get('retry-after'), '5', what);
  }
  t.equal((await call(served.url, '/api/test/one?text=a', { 'X-API-Key': TEST_KEY })).status, 200, 'the test key on a stateless endpoint needs no database');

  await postgres.start();
  await recovers(t, unverified, 'stopped server, a key not verified before', RECOVERY_MS);
  await recovers(t, () => call(fresh.url, '/api/admin/keys', ADMIN), 'the engine that never opened it opens it now', RECOVERY_MS);
  const usage = await (await call(served.url, '/api/admin/usage', ADMIN)).json();
  t.same(
    usage.result.by_key.map((k: { key_id: string; requests: number }) => [k.key_id, k.requests]).sort(),
    [
      [key.id, 2],
      [unseen.id, 1],
      ['test', 1],
    ].sort(),
    "the test key's request during the outage was counted, kept while writes failed, and written once the database was back",
  );
});

t.test('PostgreSQL frozen (SIGSTOP): 503 within the timeout, at once while the circuit is open, then service resumes', async (t) => {
  const postgres = await startPostgres(t);
  const served = await serve({ ...ENV, DATABASE_URL: await postgres.newDatabase() }, { endpoints });
  t.teardown(() => served.close());
  const key = await served.engine.keys.create({ tier: 'personal' });
  const personal = () => call(served.url, '/api/test/one?text=a', { 'X-API-Key': key.key });
  t.equal((await personal()).status, 200, 'up, with open connections in the pool');
  const unseen = await served.engine.keys.create({ tier: 'personal' });
  const unverified = () => call(served.url, '/api/test/one?text=a', { 'X-API-Key': unseen.key });

  // its open sessions hang mid-query; new connections are accepted by the kernel and never answered
  postgres.freeze();
  t.teardown(() => postgres.thaw());
  await failsFast(t, unverified, 'frozen server, a key not verified here');
  t.equal((await call(served.url, '/api/test/one?text=a', { 'X-API-Key': TEST_KEY })).status, 200, 'what needs no database still answers');
  t.equal((await personal()).status, 200, 'and so does a personal key verified before the freeze');

  postgres.thaw();
  await recovers(t, unverified, 'frozen server, a key not verified before', RECOVERY_MS);
  t.equal((await call(served.url, '/api/admin/keys', ADMIN)).status, 200, 'key management too');
});

t.test('a port that accepts connections and never answers: 503 within the timeout, then at once', async (t) => {
  const held: net.Socket[] = [];
  const blackhole = net.createServer((socket) => held.push(socket));
  const port = await freePort();
  await new Promise<void>((resolve) => blackhole.listen(port, '127.0.0.1', resolve));
  t.teardown(() => {
    for (const socket of held) socket.destroy();
    blackhole.close();
  });
  const served = await serve({ ...ENV, DATABASE_URL: `postgres://manifold@127.0.0.1:${port}/manifold` }, { endpoints });
  t.teardown(() => served.close());
  await failsFast(t, () => call(served.url, '/api/admin/keys', ADMIN), 'a silent port, key management (opening the database)');
  t.ok(held.length > 0, 'the engine did connect to it');
});

t.test('one pooled connection killed server-side (pg_terminate_backend): the requests that follow answer 200, no 503 window', async (t) => {
  const postgres = await startPostgres(t);
  const url = await postgres.newDatabase();
  const served = await serve({ ...ENV, DATABASE_URL: url }, { endpoints });
  t.teardown(() => served.close());
  const key = await served.engine.keys.create({ tier: 'personal' });
  const personal = () => timed(() => call(served.url, '/api/test/one?text=a', { 'X-API-Key': key.key }));
  t.equal((await personal()).res.status, 200, 'up');
  // another client, as an operator (or a PgBouncer recycling its server connections) would be
  const operator = new pg.Client({ connectionString: url });
  await operator.connect();
  t.teardown(() => operator.end());
  const backends = async (where = 'true') =>
    (
      await operator.query<{ pid: number }>(`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and ${where}`)
    ).rows.map((r) => r.pid);
  const terminate = (pids: number[]) => operator.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
  /** Five requests in a row, right away: all 200, none waiting. */
  const following = async (what: string) => {
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await personal());
    t.same(
      answers.map((a) => [a.res.status, a.body.error]),
      Array(5).fill([200, undefined]),
      `${what}: the requests that follow answer 200`,
    );
    t.comment(`${what}: the next requests in ${answers.map((a) => a.ms).join(', ')} ms`);
  };

  // a query in flight on the engine's pool when its backend is terminated
  const db = await readyDatabase(served.engine.database);
  const inFlight = sql`select pg_sleep(${TIMEOUT_MS / 1000 - 1})`.execute(db.kysely).catch((err: unknown) => err);
  let sleeping: number[] = [];
  while (!(sleeping = await backends("query like 'select pg_sleep%'")).length) await new Promise((resolve) => setTimeout(resolve, 20));
  await terminate(sleeping);
  const failed = await inFlight;
  t.ok(
    failed instanceof ApiError && failed.code === 'database_unavailable',
    'the query that was running fails with database_unavailable (it may have run: not retried)',
  );
  await following('a backend terminated mid-query');

  // every idle pooled connection terminated, the server fine: pg-pool drops each as its socket reports the end
  const idle = await backends();
  t.ok(idle.length > 0, `the pool holds connections (${idle.length})`);
  await terminate(idle);
  while ((await backends(`pid = any('{${idle.join(',')}}'::int[])`)).length) await new Promise((resolve) => setTimeout(resolve, 20));
  await following('idle pooled connections terminated');
});

t.test('what opens the circuit at once: a timeout (each cost its request the whole wait), not a failure that came at once', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  // pg-pool's and pg's own errors, as they reach the breaker or wrapped in database_unavailable
  const connectTimeout = new Error('Connection terminated due to connection timeout', { cause: new Error('Connection terminated unexpectedly') });
  for (const err of [
    connectTimeout,
    databaseUnavailable(connectTimeout),
    new Error('timeout exceeded when trying to connect'),
    new Error('Query read timeout'),
    coded('ETIMEDOUT'),
    coded('57014', 'canceling statement due to statement timeout'),
    new AggregateError([coded('ETIMEDOUT'), coded('ETIMEDOUT')]),
  ])
    t.ok(isTimeout(err), `${String((err as Error).message)}: at once`);
  for (const err of [
    coded('ECONNREFUSED'),
    coded('ECONNRESET'),
    coded('57P01', 'terminating connection due to administrator command'),
    new Error('Connection terminated unexpectedly'),
    new Error('Client has encountered a connection error and is not queryable'),
    new AggregateError([coded('ECONNREFUSED')]),
    databaseUnavailable(coded('ECONNREFUSED')),
  ])
    t.notOk(isTimeout(err), `${String((err as Error).message || (err as { code?: string }).code)}: counted`);
});

t.test('what counts as unreachable', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  for (const err of [
    coded('ECONNREFUSED'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('08006'),
    coded('57014', 'canceling statement due to statement timeout'),
    new Error('Query read timeout'),
    databaseUnavailable(),
    coded('SQLITE_BUSY', 'database is locked'),
    coded('SQLITE_IOERR_WRITE'),
    new Error('Connection terminated unexpectedly'),
    new AggregateError([coded('ECONNREFUSED')]),
  ])
    t.ok(isUnreachable(err), String((err as Error).message || (err as { code?: string }).code));
  for (const err of [
    new ApiError('rate_limited', 'x'),
    coded('23505', 'duplicate key'),
    coded('SQLITE_CONSTRAINT_UNIQUE'),
    new Error('syntax error at or near'),
    undefined,
    'text',
  ])
    t.notOk(isUnreachable(err), String(err));
});

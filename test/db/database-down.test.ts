/**
 * A database that cannot be reached answers 503 database_unavailable (with
 * Retry-After), never 500: the PostgreSQL server is stopped in the middle of the
 * test and started again. What needs no database (the shared test key on a
 * stateless endpoint) keeps working meanwhile, and service resumes by itself.
 */
import t from 'tap';
import { isUnreachable } from '../../engine/db/unavailable.js';
import { startPostgres } from '../support/postgres.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const { endpoints } = testEndpoints();
const ADMIN = { Authorization: 'Bearer admin-secret' };

t.test('PostgreSQL stopped mid-test: 503 database_unavailable, then service resumes', async (t) => {
  const postgres = await startPostgres(t);
  const served = await serve({ DATABASE_URL: await postgres.newDatabase(), ADMIN_TOKEN: 'admin-secret' }, { endpoints });
  t.teardown(() => served.close());
  // an engine that has not touched its database yet when the server goes away
  const fresh = await serve({ DATABASE_URL: await postgres.newDatabase(), ADMIN_TOKEN: 'admin-secret' }, { endpoints });
  t.teardown(() => fresh.close());
  const key = await served.engine.keys.create({ tier: 'personal' });
  const call = (base: string, path: string, headers: Record<string, string>) => fetch(base + path, { headers });
  const personal = () => call(served.url, '/api/test/one?text=a', { 'X-API-Key': key.key });
  t.equal((await personal()).status, 200, 'up');

  await postgres.stop();
  for (const [what, res] of [
    ['a personal key (its check reads the database)', await personal()],
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
  t.equal((await personal()).status, 200, 'back without a restart of the engine');
  t.equal((await call(fresh.url, '/api/admin/keys', ADMIN)).status, 200, 'the engine that never opened it opens it now');
  const usage = await (await call(served.url, '/api/admin/usage', ADMIN)).json();
  t.same(
    usage.result.by_key.map((k: { key_id: string; requests: number }) => [k.key_id, k.requests]),
    [
      [key.id, 2],
      ['test', 1],
    ],
    "the test key's request during the outage was counted, kept while writes failed, and written once the database was back",
  );
});

t.test('what counts as unreachable', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
  for (const err of [
    coded('ECONNREFUSED'),
    coded('57P01', 'terminating connection due to administrator command'),
    coded('08006'),
    coded('SQLITE_BUSY', 'database is locked'),
    coded('SQLITE_IOERR_WRITE'),
    new Error('Connection terminated unexpectedly'),
    new AggregateError([coded('ECONNREFUSED')]),
  ])
    t.ok(isUnreachable(err), String((err as Error).message || (err as { code?: string }).code));
  for (const err of [coded('23505', 'duplicate key'), coded('SQLITE_CONSTRAINT_UNIQUE'), new Error('syntax error at or near'), undefined, 'text'])
    t.notOk(isUnreachable(err), String(err));
});

import { sql } from 'kysely';
import t from 'tap';
import { openDatabase, type Database } from '../../engine/platform/db/database.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { web2zip } from './site.js';

/**
 * The per-key limit of unfinished jobs holds when one key's submissions race: the
 * count and the insert are one step in the store (JobStore.createWithin), so ten
 * submissions at once with a limit of 2 make exactly 2 jobs, on either database and,
 * on PostgreSQL, across instances with pools of their own.
 */
const dialects = await testDialects(t);
const AT_ONCE = 10;
const LIMIT = 2;

/** Open the database and as many connections as the race needs, so the submissions meet at the database, not in the pool's queue. */
async function warm(db: Database): Promise<void> {
  await db.ready;
  await Promise.all(Array.from({ length: AT_ONCE }, () => sql`select 1`.execute(db.kysely)));
}

for (const dialect of dialects) {
  t.test(`${dialect.name}: ${AT_ONCE} async submissions at once, limit ${LIMIT}: exactly ${LIMIT} accepted, the rest 429`, async (t) => {
    // no engine.start(): nothing runs the jobs, so every accepted one stays unfinished
    const served = await serve({ ...(await dialect.env(t)), TEST_KEY_MAX_JOBS: String(LIMIT) }, { endpoints: web2zip });
    t.teardown(() => served.close());
    await warm(served.engine.database.current());
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, async (_, i) => {
        const res = await fetch(`${served.url}/api/tools/web2zip?url=${encodeURIComponent(`https://example.com/?n=${i}`)}&async=true`, {
          headers: { 'X-API-Key': TEST_KEY },
        });
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
      }),
    );
    const accepted = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 429);
    t.equal(accepted.length, LIMIT, `${LIMIT} accepted (statuses: ${answers.map((a) => a.status).join(',')})`);
    t.equal(refused.length, AT_ONCE - LIMIT, 'every other one refused');
    for (const answer of refused)
      t.same(
        { retryAfter: answer.retryAfter, body: answer.body },
        {
          retryAfter: '5',
          body: {
            status: 429,
            success: false,
            creator: 'Manifold',
            error: 'rate_limited',
            message: `This key already has ${LIMIT} unfinished jobs, the limit of its test tier (TEST_KEY_MAX_JOBS=${LIMIT}); retry when one has finished`,
            details: [{ param: 'async', problem: `at most ${LIMIT} unfinished jobs per test key` }],
          },
        },
        'the 429 as before',
      );
    const store = new JobStore(served.engine.database);
    t.equal(await store.pending('test'), LIMIT, `${LIMIT} jobs recorded`);
    t.same(await store.counts(), { queued: LIMIT, active: 0, completed: 0, failed: 0, cancelled: 0 });
  });
}

// SQLite once (two connections of one process take turns: connect.ts); PostgreSQL also as two instances with pools of their own
const cases = dialects.flatMap((dialect) =>
  dialect.name === 'postgres'
    ? [
        { dialect, instances: 1 },
        { dialect, instances: 2 },
      ]
    : [{ dialect, instances: 1 }],
);
for (const { dialect, instances } of cases)
  t.test(`${dialect.name}, ${instances} instance(s): createWithin counts and inserts in one step`, async (t) => {
    const target = await dialect.target(t);
    const handles = Array.from({ length: instances }, () => openDatabase(target));
    t.teardown(() => Promise.all(handles.map((db) => db.close())));
    await Promise.all(handles.map(warm));
    const stores = handles.map((db) => new JobStore(db));
    const job = (i: number) => ({ keyId: 'key_a', endpoint: 'GET /api/tools/web2zip', params: { url: `https://example.com/?n=${i}` } });
    const outcomes = await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => stores[i % instances].createWithin(LIMIT, job(i))));
    const created = outcomes.flatMap((o) => ('job' in o ? [o.job] : []));
    t.equal(created.length, LIMIT, `exactly ${LIMIT} created`);
    t.same(
      outcomes.filter((o) => !('job' in o)),
      Array.from({ length: AT_ONCE - LIMIT }, () => ({ pending: LIMIT })),
      'every other one reports the key at its limit',
    );
    t.equal(await stores[0].pending('key_a'), LIMIT);

    const other = stores.at(-1)!;
    t.ok('job' in (await other.createWithin(LIMIT, { ...job(0), keyId: 'key_b' })), 'another key has its own limit');
    await other.fail(created[0].id, { error: 'upstream_error', message: 'x' });
    t.ok('job' in (await stores[0].createWithin(LIMIT, job(99))), 'a finished job frees its place');
    t.same(await stores[0].createWithin(LIMIT, job(100)), { pending: LIMIT }, 'and only that one');
  });

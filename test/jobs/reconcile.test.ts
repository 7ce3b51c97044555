import t from 'tap';
import { silentLogger } from '../../engine/platform/log.js';
import type { JobQueue } from '../../engine/pipeline/jobs/queue.js';
import { JobReconciler } from '../../engine/pipeline/jobs/reconcile.js';
import { JobStore, type JobError } from '../../engine/pipeline/jobs/store.js';
import { testDialects } from '../support/dialects.js';

/**
 * The reconciler and the bound on unfinished records, on both databases, against a queue
 * that says what it holds (as BullMQ does): with the clock in the test's hand, so "older
 * than the bound" is a fact, not a wait. The kill test over real processes is
 * crash-between-steps.test.ts.
 */
const PERIOD_MS = 1000;
const MAX_AGE_MS = 60_000;
const job = (keyId: string) => ({ keyId, endpoint: 'GET /api/tools/web2zip', params: {} });

/** A queue holding `held` and having finished `finished` (the rest it never saw), recording what was added; `turn` says whether this instance may sweep. */
function fakeQueue(held: Set<string>, turn = true, finished = new Set<string>()) {
  const added: string[] = [];
  const queue = {
    add: async (id: string) => void added.push(id),
    states: async (ids: string[]) => new Map(ids.map((id) => [id, held.has(id) ? 'held' : finished.has(id) ? 'finished' : 'absent'])),
    lead: async () => turn,
  } as unknown as JobQueue;
  return { queue, added };
}

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: an unfinished record older than JOBS_MAX_AGE_MS no longer counts against its key`, async (t) => {
    const db = await dialect.open(t);
    let now = Date.parse('2026-11-27T12:00:00.000Z');
    const store = new JobStore(db, { now: () => new Date(now), maxAgeMs: MAX_AGE_MS });
    t.ok('job' in (await store.createWithin(2, job('key_a'))));
    t.ok('job' in (await store.createWithin(2, job('key_a'))));
    t.same(await store.createWithin(2, job('key_a')), { pending: 2 }, 'at the limit');
    now += MAX_AGE_MS - 1;
    t.same(await store.createWithin(2, job('key_a')), { pending: 2 }, 'still counted within the bound');
    now += 1;
    t.equal(await store.pending('key_a'), 0, 'past the bound: not counted');
    t.ok('job' in (await store.createWithin(2, job('key_a'))), 'the key submits again');
  });

  t.test(`${dialect.name}: a sweep queues again what the queue lost, fails what it gave up and what expired`, async (t) => {
    const db = await dialect.open(t);
    let now = Date.parse('2026-11-27T12:00:00.000Z');
    const store = new JobStore(db, { now: () => new Date(now), maxAgeMs: MAX_AGE_MS });
    const expired = await store.create(job('key_a'));
    now += MAX_AGE_MS - 5 * PERIOD_MS;
    const stranded = await store.create(job('key_a'));
    const waiting = await store.create(job('key_a'));
    const lost = await store.create(job('key_b'));
    await store.start(lost.id);
    const running = await store.create(job('key_b'));
    await store.start(running.id);
    const givenUp = await store.create(job('key_b')); // never started: BullMQ's attempts to reach the database ran out
    now += 5 * PERIOD_MS + 1 - PERIOD_MS / 2;
    const young = await store.create(job('key_a'));
    now += PERIOD_MS / 2; // the first record is now 1 ms past JOBS_MAX_AGE_MS, the young one half a period old

    const failures: [string, JobError][] = [];
    const fail = async (id: string, error: JobError) => {
      failures.push([id, error]);
      await store.fail(id, error);
    };
    const { queue, added } = fakeQueue(new Set([waiting.id, running.id, expired.id]), true, new Set([givenUp.id]));
    const reconciler = new JobReconciler(store, queue, { periodMs: PERIOD_MS, maxAgeMs: MAX_AGE_MS, logger: silentLogger, fail });
    const sweep = await reconciler.sweep();

    t.same(added, [stranded.id], 'the queued record the queue does not hold is queued again (under its own id)');
    t.same(
      failures.map(([id, e]) => [id, e.error]),
      [
        [expired.id, 'upstream_timeout'],
        [lost.id, 'internal_error'],
        [givenUp.id, 'internal_error'],
      ],
      'the expired one (even though the queue holds it), the running one the queue lost and the queued one it gave up on are failed',
    );
    t.match(await store.get(expired.id), { status: 'failed', error: { message: /JOBS_MAX_AGE_MS/, status: 504 } });
    t.match(await store.get(lost.id), { status: 'failed', error: { message: /queue no longer holds it/, status: 500 } });
    t.same(sweep, { requeued: [stranded.id], failed: [expired.id, lost.id, givenUp.id] });
    for (const left of [waiting, running, young, stranded]) t.equal((await store.get(left.id))?.status === 'failed', false, `${left.id} left alone`);

    const other = fakeQueue(new Set(), false);
    t.same(
      await new JobReconciler(store, other.queue, { periodMs: PERIOD_MS, maxAgeMs: MAX_AGE_MS, logger: silentLogger, fail }).sweep(),
      { requeued: [], failed: [] },
      'not its turn: nothing done',
    );
  });
}

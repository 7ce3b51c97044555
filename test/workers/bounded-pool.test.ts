import t, { type Test } from 'tap';
import { BoundedPool } from '../../engine/platform/workers/pool.js';
import { ApiError } from '../../engine/core/errors.js';
import { siblingModule } from '../../engine/core/root.js';

/** A one-thread pool of the fixture worker, closed when the subtest ends; warmed, as a worker's start takes a while under tsx. */
async function pool(t: Test, extra: Partial<ConstructorParameters<typeof BoundedPool>[0]> = {}) {
  const p = new BoundedPool({ filename: siblingModule(import.meta.url, 'fixture-worker'), name: 'The test workers', threads: 1, taskMs: 500, ...extra });
  t.teardown(() => p.close());
  await p.run({ kind: 'sleep', ms: 1 }, { taskMs: 5000, queueWaitMs: 60_000 });
  return p;
}

t.test('values cross back; ApiErrors keep status, code and details', async (t) => {
  const p = await pool(t);
  const echo = await p.run<{ bytes: Uint8Array }>({ kind: 'echo' });
  t.equal(Buffer.from(echo.bytes).toString(), 'hi');
  await t.rejects(p.run({ kind: 'bad-param' }), { name: 'ApiError', status: 400, code: 'invalid_parameter', details: [{ param: 'text' }] });
  await t.rejects(p.run({ kind: 'other' }), { message: 'boom' });
  t.notOk((await p.run({ kind: 'other' }).catch((e) => e)) instanceof ApiError, 'a bug stays a bug (500), not a client error');
});

t.test('a runaway task is stopped at its wall-clock limit and its worker replaced', async (t) => {
  const p = await pool(t);
  const started = Date.now();
  await t.rejects(p.run({ kind: 'spin' }), { status: 422, code: 'too_complex', message: /longer than 500 ms/ });
  t.ok(Date.now() - started < 5000, 'answered soon after the limit');
  t.equal(await p.run({ kind: 'sleep', ms: 1 }), 'slept', 'the pool works on with a new worker');
  await t.rejects(p.run({ kind: 'sleep', ms: 400 }, { taskMs: 100 }), { code: 'too_complex', message: /100 ms/ }, 'a per-task limit');
});

t.test('the limit counts from the start of the task, not from the queue', async (t) => {
  const p = await pool(t, { taskMs: 600 });
  const results = await Promise.all([p.run({ kind: 'sleep', ms: 400 }), p.run({ kind: 'sleep', ms: 400 })]);
  t.same(results, ['slept', 'slept'], 'the second waited 400 ms, then ran 400 ms of its own 600');
});

t.test('memory and stack limits answer 422 and spare the process', async (t) => {
  const p = await pool(t, { resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 }, taskMs: 20_000 });
  await t.rejects(p.run({ kind: 'hog' }), { status: 422, code: 'too_complex', message: /memory/ });
  await t.rejects(p.run({ kind: 'deep' }), { status: 422, code: 'too_complex', message: /nested too deeply/ });
  t.equal(await p.run({ kind: 'sleep', ms: 1 }), 'slept');
});

t.test('a full queue and a long wait answer 503 overloaded', async (t) => {
  const full = await pool(t, { queue: 1, taskMs: 5000 });
  const running = full.run({ kind: 'sleep', ms: 300 });
  const waiting = full.run({ kind: 'sleep', ms: 1 });
  await t.rejects(full.run({ kind: 'sleep', ms: 1 }), { status: 503, code: 'overloaded', message: /The test workers are busy/ });
  t.same(await Promise.all([running, waiting]), ['slept', 'slept']);

  const slow = await pool(t, { queueWaitMs: 500, taskMs: 5000 });
  const first = slow.run({ kind: 'sleep', ms: 2000 });
  await t.rejects(slow.run({ kind: 'sleep', ms: 1 }), { status: 503, code: 'overloaded' });
  t.equal(await first, 'slept');
});

t.test("the caller's abort stops the task with the caller's reason", async (t) => {
  const p = await pool(t, { taskMs: 5000 });
  const controller = new AbortController();
  const reason = new Error('client gone');
  setTimeout(() => controller.abort(reason), 100);
  await t.rejects(p.run({ kind: 'spin' }, { signal: controller.signal }), reason);
  t.equal(await p.run({ kind: 'sleep', ms: 1 }), 'slept');
});

t.test('an idle worker exits after idleMs (WORKER_IDLE_MS) and the next task starts another', async (t) => {
  const p = await pool(t, { idleMs: 200 });
  const first = await p.run<{ threadId: number }>({ kind: 'echo' });
  t.equal(p.alive, 1);
  // piscina's idle timer does not keep the process alive; this does, until the worker is gone
  const alive = setInterval(() => {}, 1000);
  await p.retired();
  clearInterval(alive);
  t.equal(p.alive, 0, 'no worker is kept: its memory went with it');
  const next = await p.run<{ threadId: number }>({ kind: 'echo' }, { queueWaitMs: 60_000 });
  t.not(next.threadId, first.threadId, 'a new worker ran it');
});

t.test('a worker that cannot start fails the task with 503 unavailable, and the process goes on', async (t) => {
  const p = new BoundedPool({ filename: siblingModule(import.meta.url, 'broken-worker'), name: 'The broken workers', threads: 1, taskMs: 5000 });
  t.teardown(() => p.close());
  await t.rejects(p.run({}), { status: 503, code: 'unavailable', message: /The broken workers cannot start a worker/ });
});

/**
 * The code and render pools share one set of worker threads (platform/workers/shared-workers.ts):
 * two BoundedPools on one SharedWorkers run their own modules on the same threads, each keeps
 * its own limits and typed errors, and only the owner's close stops the threads.
 */
import t from 'tap';
import { BoundedPool } from '../../engine/platform/workers/pool.js';
import { SharedWorkers } from '../../engine/platform/workers/shared-workers.js';
import { siblingModule } from '../../engine/core/root.js';

t.test('two pools, one thread: each runs its own module on it, with its own limits', async (t) => {
  const workers = new SharedWorkers({ threads: 1 });
  t.teardown(() => workers.close());
  const a = new BoundedPool({ filename: siblingModule(import.meta.url, 'fixture-worker'), name: 'The A tools', workers, taskMs: 60_000 });
  const b = new BoundedPool({ filename: siblingModule(import.meta.url, 'fixture-worker-b'), name: 'The B tools', workers, taskMs: 60_000 });
  const first = await a.run<{ threadId: number }>({ kind: 'echo' }, { queueWaitMs: 60_000 });
  const second = await b.run<{ module: string; threadId: number }>({}, { queueWaitMs: 60_000 });
  t.equal(second.module, 'b', "B's module ran");
  t.equal(second.threadId, first.threadId, 'on the thread that ran A');
  t.equal(workers.piscina.threads.length, 1, 'one thread for both');
  t.equal(a.threads, 1);
  t.equal(b.threads, 1);

  await t.rejects(a.run({ kind: 'bad-param' }), { status: 400, code: 'invalid_parameter' }, "A's typed errors cross back");
  await t.rejects(a.run({ kind: 'spin' }, { taskMs: 300 }), { status: 422, code: 'too_complex', message: /300 ms/ }, "A's wall clock");
  const after = await b.run<{ threadId: number }>({}, { queueWaitMs: 60_000 });
  t.not(after.threadId, first.threadId, 'the stopped worker was replaced, and B runs on the new one');

  await a.close();
  t.equal((await b.run<{ module: string }>({}, { queueWaitMs: 60_000 })).module, 'b', "a pool's close leaves the shared threads to their owner");
});

/** EFFECTS_QUEUE is per worker, as documented: threads × queue renders may wait, the rest get 503 overloaded. */
import t from 'tap';
import { ApiError } from '../../engine/core/errors.js';
import { DEFAULT_QUEUE_PER_WORKER, RenderPool } from '../../engine/features/effects/render-pool.js';
import { loadTemplates } from '../../engine/features/effects/templates.js';

const template = loadTemplates().get('galaxy')!.template;

/** Of `burst` renders sent at once to a pool whose workers are all up, how many are admitted. */
async function admitted(threads: number, queue: number, burst: number): Promise<number> {
  const pool = new RenderPool({ threads, queue });
  t.teardown(() => pool.close());
  // one small render per thread at once starts every worker, so the burst meets a warm pool
  await Promise.all(Array.from({ length: threads }, (_, i) => pool.render({ template, params: { text: `warm${i}`, size: 64 } })));
  const results = await Promise.allSettled(Array.from({ length: burst }, (_, i) => pool.render({ template, params: { text: `n${i}`, size: 256 } })));
  for (const r of results) if (r.status === 'rejected') (t.match(r.reason, { status: 503, code: 'overloaded' }), t.ok(r.reason instanceof ApiError));
  return results.filter((r) => r.status === 'fulfilled').length;
}

t.test('two workers with EFFECTS_QUEUE=1: two render, two wait, the rest are refused', async (t) => {
  t.equal(await admitted(2, 1, 6), 4, 'threads + threads × 1 (a total queue of 1 would admit 3)');
});

t.test('two workers with EFFECTS_QUEUE=2 admit six; one worker with 1 admits two', async (t) => {
  t.equal(await admitted(2, 2, 8), 6);
  t.equal(await admitted(1, 1, 4), 2);
});

t.test('the default is 16 waiting renders per worker', async (t) => {
  t.equal(DEFAULT_QUEUE_PER_WORKER, 16);
  const pool = new RenderPool({ threads: 3 });
  t.teardown(() => pool.close());
  t.equal(pool.maxQueue, 48);
});

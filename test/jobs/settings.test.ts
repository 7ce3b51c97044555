import t from 'tap';
import { loadConfig } from '../../engine/config.js';
import { workerOptions } from '../../engine/jobs/bullmq-queue.js';
import { jobSettings } from '../../engine/jobs/settings.js';

const lockMs = (value?: string) => jobSettings(loadConfig({ JOBS_LOCK_MS: value })).lockMs;

t.test('JOBS_LOCK_MS: 10 s by default, a whole number of milliseconds of at least 1000', async (t) => {
  t.equal(lockMs(), 10_000);
  t.equal(lockMs(''), 10_000);
  t.equal(lockMs('60000'), 60_000);
  t.throws(() => lockMs('999'), /JOBS_LOCK_MS must be at least 1000 \(milliseconds\), got "999"/);
  for (const bad of ['0', '-5', '1.5', '10s', '1e3x']) t.throws(() => lockMs(bad), /JOBS_LOCK_MS must be a positive integer/, bad);
});

t.test("BullMQ's worker holds a job for JOBS_LOCK_MS and checks for stalled jobs every half of it", async (t) => {
  t.same(workerOptions(10_000), { lockDuration: 10_000, stalledInterval: 5000 });
  t.same(workerOptions(1001), { lockDuration: 1001, stalledInterval: 501 });
});

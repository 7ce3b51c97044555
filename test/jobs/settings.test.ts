import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { workerOptions } from '../../engine/pipeline/jobs/bullmq-queue.js';
import { jobSettings } from '../../engine/pipeline/jobs/settings.js';
import { Jobs, type JobsDeps } from '../../engine/pipeline/jobs/service.js';

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

t.test('JOBS_MAX_AGE_MS must outlast the longest job endpoint timeout: a running job is never expired', async (t) => {
  const registry = {
    byId: new Map([['GET /api/download/long', { endpoint: { async: true, limits: { timeoutMs: 900_000 } } }]]),
  } as unknown as JobsDeps['registry'];
  const jobs = (JOBS_MAX_AGE_MS: string) => new Jobs({ config: loadConfig({ JOBS_MAX_AGE_MS }), registry } as JobsDeps);
  t.throws(() => jobs('900000'), /JOBS_MAX_AGE_MS \(900000\) must be longer than the longest job endpoint's timeout \(900000 ms\)/);
  t.equal(jobSettings(loadConfig({})).maxAgeMs, 3_600_000, '1 hour by default');
});

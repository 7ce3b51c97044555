import { Queue } from 'bullmq';
import t from 'tap';
import { startRedis } from '../limits/redis-server.js';
import { serve, tempDataDir, TEST_KEY, type Served } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';
import { jobWhenDone, startHangingSite, startSite, web2zip } from './site.js';

/**
 * Cancels across instances on one real redis-server (BullMQ), set up as fleet.test.ts is:
 * the cancel reaches the `api` instance while the job runs on a separate `worker` instance,
 * which must stop it (manifold:jobs:cancel) and free its one slot; a queued job leaves
 * Redis; a synchronous call waiting on the api instance for a job the admin cancels
 * answers at once with job_cancelled.
 */
const redisUrl = await startRedis(t, t.testdir());
if (!redisUrl) throw new Error('redis-server is not installed: apt-get install -y redis-server');
const env = {
  REDIS_URL: redisUrl,
  DATA_DIR: tempDataDir(),
  TEST_KEY_MAX_JOBS: '10',
  JOBS_CONCURRENCY: '1',
  ADMIN_TOKEN: TEST_ADMIN_TOKEN,
};
const asTest = { 'X-API-Key': TEST_KEY };
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const instance = async (role: 'api' | 'worker') => {
  const served = await serve({ ...env, MANIFOLD_ROLE: role }, { endpoints: web2zip });
  await served.engine.start();
  return served;
};
const api: Served = await instance('api');
const worker: Served = await instance('worker');
// what BullMQ itself holds (the engine's queue is named `jobs` under the `manifold` prefix)
const queue = new Queue('jobs', { connection: { url: redisUrl }, prefix: 'manifold' });
t.teardown(async () => {
  await queue.close();
  await api.close();
  await worker.close();
});

const call = async (path: string, headers: Record<string, string> = asTest, method = 'GET') => {
  const res = await fetch(api.url + path, { method, headers });
  return { status: res.status, body: await res.json() };
};
const submit = async (target: string) => {
  const accepted = await call(`/api/tools/web2zip?url=${encodeURIComponent(target)}&async=true`);
  t.equal(accepted.status, 202);
  return accepted.body.result.job_id as string;
};

t.test('a cancel sent to the api instance stops the job on the worker, and frees its slot', async (t) => {
  const hanging = await startHangingSite(t);
  const site = await startSite(t, { assets: 1 });
  const running = await submit(hanging.url);
  await hanging.requested;
  // the worker's one slot is taken: this one waits in Redis
  const queued = await submit(site);
  t.equal(await queue.getJobState(queued), 'waiting');

  const dropped = await call(`/api/jobs/${queued}/cancel`, asTest, 'POST');
  t.match(dropped, { status: 200, body: { result: { status: 'cancelled' } } });
  t.equal(await queue.getJobState(queued), 'unknown', 'removed from Redis');

  t.equal(await queue.getJobState(running), 'active');
  const stopped = await call(`/api/jobs/${running}/cancel`, asTest, 'POST');
  t.match(stopped, { status: 200, body: { result: { status: 'cancelled', started_at: String } } });
  await hanging.aborted;
  t.pass("the worker instance gave up the job's request");

  const next = await submit(site);
  t.match(await jobWhenDone(api.url, next, TEST_KEY), { status: 'completed' }, 'the next job ran in the freed slot');
  t.match((await call(`/api/jobs/${running}`)).body.result, { status: 'cancelled', error: { error: 'job_cancelled' } }, 'still cancelled, not completed');
  t.notOk('started_at' in (await call(`/api/jobs/${queued}`)).body.result, 'the queued one never ran');
});

t.test('a synchronous call waiting for a job the admin cancels answers job_cancelled', async (t) => {
  const hanging = await startHangingSite(t);
  const waiting = fetch(`${api.url}/api/tools/web2zip?url=${encodeURIComponent(hanging.url)}`, { headers: asTest });
  await hanging.requested;
  const active = await call('/api/admin/jobs?status=active', ADMIN);
  t.equal(active.body.result.jobs.length, 1, JSON.stringify(active.body));
  const cancelled = await call(`/api/admin/jobs/${active.body.result.jobs[0].job_id}/cancel`, ADMIN, 'POST');
  t.match(cancelled, { status: 200, body: { result: { status: 'cancelled', key_id: 'test' } } });
  const answer = await waiting;
  t.equal(answer.status, 409);
  t.match(await answer.json(), { error: 'job_cancelled', message: /administrator/ });
  await hanging.aborted;
});

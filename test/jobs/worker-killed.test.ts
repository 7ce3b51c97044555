import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t, { type Test } from 'tap';
import { startRedis } from '../limits/redis-server.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { startReceiver, startSite, web2zip } from './site.js';

/**
 * A worker killed mid-job (SIGKILL: no shutdown, its lock in Redis is simply no longer
 * renewed) on a real redis-server: another worker runs the job again once BullMQ's
 * stalled-job check finds the lock expired, with the default JOBS_LOCK_MS (10 s)
 * within ~15 s of the kill (bullmq-queue.ts: workerOptions), where BullMQ's own
 * defaults took ~73 s. The bound here is generous for a loaded machine. A healthy job
 * outliving its lock is never taken as stalled (the lock is renewed), and one whose
 * workers die each time is given up and recorded failed instead of staying `active`.
 */
const BOUND_S = 45;
const here = path.dirname(fileURLToPath(import.meta.url));
const redisUrl = await startRedis(t, t.testdir());
if (!redisUrl) throw new Error('redis-server is not installed: apt-get install -y redis-server');
const env = { REDIS_URL: redisUrl, DATA_DIR: tempDataDir(), LOG_REQUESTS: '0' };

/** A worker process; resolves once it takes jobs. Killed at the end of test `t` if still running. */
async function startWorker(t: Test, extraEnv: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'worker-child.ts'), JSON.stringify({ ...env, ...extraEnv })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, exited };
}

const api = await serve({ ...env, MANIFOLD_ROLE: 'api' }, { endpoints: web2zip });
await api.engine.start();
t.teardown(() => api.close());
const submit = async (site: string, query = '') =>
  (await (await fetch(`${api.url}/api/tools/web2zip?url=${encodeURIComponent(site)}&async=true${query}`, { headers: { 'X-API-Key': TEST_KEY } })).json()).result
    .job_id as string;
const job = async (id: string) => (await (await fetch(`${api.url}/api/jobs/${id}`, { headers: { 'X-API-Key': TEST_KEY } })).json()).result;

/** The job once it runs (or as it is after 30 s), a run other than `previous` if given. */
async function active(id: string, previous?: { started_at: string }) {
  let current = await job(id);
  for (let i = 0; i < 300 && (current.status !== 'active' || current.started_at === previous?.started_at); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await job(id);
  }
  return current;
}

t.test(`a job whose worker is SIGKILLed is finished by another worker within ${BOUND_S} s`, async (t) => {
  let release!: () => void;
  // the page's images answer only once released: the job stays running on the first worker until it is killed
  const site = await startSite(t, { assets: 2, gate: new Promise<void>((resolve) => (release = resolve)) });
  const first = await startWorker(t);
  const id = await submit(site);
  const running = await active(id);
  t.equal(running.status, 'active', 'running on the first worker');
  // killed at once: a run held past web2zip's 10 s asset timeout ends on its own (with the
  // page alone), which on a loaded machine starting the next worker first used to allow
  first.child.kill('SIGKILL');
  await first.exited;
  release(); // the run that starts over completes at once
  await startWorker(t); // idle, so it takes the job as soon as it is waiting again
  // the recovery is counted from when a worker is there to recover it
  const killedAt = Date.now();

  let restartedS: number | undefined;
  let current = await job(id);
  while (current.status !== 'completed' && current.status !== 'failed' && Date.now() - killedAt < 120_000) {
    if (restartedS === undefined && current.started_at !== running.started_at) restartedS = (Date.now() - killedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await job(id);
  }
  const doneS = (Date.now() - killedAt) / 1000;
  t.match(current, { status: 'completed', progress: 100, result: { copiedFilesAmount: 3 } }, 'completed by the second worker');
  t.not(current.started_at, running.started_at, 'started over');
  t.ok(
    doneS <= BOUND_S,
    `completed ${doneS.toFixed(1)} s after another worker was up, the first one killed (run again after ${restartedS?.toFixed(1) ?? '?'} s); bound ${BOUND_S} s`,
  );
});

t.test('a healthy job running longer than the lock is never taken as stalled (JOBS_LOCK_MS=2000, a job of 7 s, two workers)', async (t) => {
  let release!: () => void;
  const site = await startSite(t, { assets: 2, gate: new Promise<void>((resolve) => (release = resolve)) });
  await Promise.all([startWorker(t, { JOBS_LOCK_MS: '2000' }), startWorker(t, { JOBS_LOCK_MS: '2000' })]);
  const id = await submit(site);
  const running = await active(id);
  t.equal(running.status, 'active');
  const until = Date.now() + 7000;
  while (Date.now() < until) {
    // another worker taking it as stalled would start it over (a new started_at, progress back to 0)
    t.equal((await job(id)).started_at, running.started_at, 'still its first run');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  release();
  let current = await job(id);
  while (current.status === 'active') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await job(id);
  }
  t.match(current, { status: 'completed', started_at: running.started_at, result: { copiedFilesAmount: 3 } }, 'completed by its first run');
});

t.test('a job whose workers die each time they run it is given up, recorded failed, and its webhook sent (JOBS_LOCK_MS=2000)', async (t) => {
  let release!: () => void;
  const site = await startSite(t, { assets: 2, gate: new Promise<void>((resolve) => (release = resolve)) });
  t.teardown(() => release());
  const receiver = await startReceiver(t, 'unused');
  const fast = { JOBS_LOCK_MS: '2000' };
  const first = await startWorker(t, fast);
  const id = await submit(site, `&callback_url=${encodeURIComponent(receiver.url)}`);
  const run1 = await active(id);
  t.equal(run1.status, 'active', 'running on the first worker');
  // each worker is killed as soon as its run is seen, before the next one starts: a run held
  // past web2zip's 10 s asset timeout would end on its own
  first.child.kill('SIGKILL');
  const second = await startWorker(t, fast);
  const run2 = await active(id, run1);
  t.not(run2.started_at, run1.started_at, 'run again on the second worker');
  second.child.kill('SIGKILL');
  await startWorker(t, fast);
  let current = await job(id);
  for (let i = 0; i < 600 && current.status === 'active'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    current = await job(id);
  }
  t.match(
    current,
    {
      status: 'failed',
      error: { error: 'internal_error', message: 'The job was given up: the worker running it stopped (killed or out of memory) each time it ran' },
    },
    'failed by the third worker without running it: it no longer counts against the key',
  );
  const [delivery] = await receiver.received(1);
  t.match(JSON.parse(delivery!.body), { job_id: id, status: 'failed', error: { error: 'internal_error' } }, 'the webhook says so');
});

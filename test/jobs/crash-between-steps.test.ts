import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { openDatabase } from '../../engine/platform/db/database.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { startRedis } from '../limits/redis-server.js';
import { startPostgres } from '../support/postgres.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { jobWhenDone, startSite, web2zip } from './site.js';

/**
 * An `api` instance SIGKILLed between recording a job and queueing it, round after round,
 * as a fleet runs (PostgreSQL, Redis/BullMQ, an api process, a worker): every record it left
 * is found by the reconciler and run (or failed) within the bound, and the key, whose limit
 * is 2 unfinished jobs, can still submit: a stranded record would refuse it from the third
 * round on (before the reconciler, 2 crashes blocked a key for ever).
 */
const ROUNDS = 6;
const RECONCILE_MS = 500;
/** A stranded record is looked at after one period and queued again within the next; the job itself takes well under a second. Generous for a loaded machine. */
const BOUND_MS = 30_000;
const here = path.dirname(fileURLToPath(import.meta.url));

const redisUrl = await startRedis(t, t.testdir());
if (!redisUrl) throw new Error('redis-server is not installed: apt-get install -y redis-server');
const databaseUrl = await (await startPostgres(t)).newDatabase();
const env = { REDIS_URL: redisUrl, DATABASE_URL: databaseUrl, DATA_DIR: tempDataDir(), TEST_KEY_MAX_JOBS: '2', JOBS_RECONCILE_MS: String(RECONCILE_MS) };

const db = openDatabase({ url: databaseUrl });
t.teardown(() => db.close());
const store = new JobStore(db);
const site = await startSite(t, { assets: 1 });
const worker = await serve({ ...env, MANIFOLD_ROLE: 'worker' }, { endpoints: web2zip });
await worker.engine.start();
t.teardown(() => worker.close());

/** Start a crashing api process, submit one job to it; resolves with how the submission ended and how the process did. */
async function crashOnce(): Promise<{ answer: string; signal: string | null; recorded: string | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'crash-child.ts'), JSON.stringify(env)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<string | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      const ready = /ready (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) => reject(new Error(`api exited (${code}) before it was ready:\n${output}`)));
  });
  const answer = await fetch(`${url}/api/tools/web2zip?url=${encodeURIComponent(site)}&async=true`, { headers: { 'X-API-Key': TEST_KEY } }).then(
    async (res) => `HTTP ${res.status} ${await res.text()}`,
    () => 'connection lost',
  );
  if (answer !== 'connection lost') child.kill('SIGKILL');
  const signal = await exited;
  return { answer, signal, recorded: /recorded (\S+ \S+)/.exec(output)?.[1] };
}

/** Every job record, oldest first. */
const records = async () => (await db.kysely.selectFrom('jobs').select(['id', 'status', 'created_at', 'finished_at']).orderBy('id').execute()) as any[];

/** The record once finished (the worker serves no job routes: read from the database), or as it is after the bound and a margin. */
async function finished(id: string) {
  const deadline = Date.now() + BOUND_MS + 10_000;
  let job = await store.get(id);
  while (job && (job.status === 'queued' || job.status === 'active') && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await store.get(id);
  }
  return job;
}

t.test(`${ROUNDS} SIGKILLs between recording and queueing: no record stranded, the key never blocked`, async (t) => {
  const seen = new Set<string>();
  for (let round = 1; round <= ROUNDS; round++) {
    const { answer, signal, recorded } = await crashOnce();
    t.same({ answer, signal }, { answer: 'connection lost', signal: 'SIGKILL' }, `round ${round}: the api died after recording, the client got no answer`);
    const left = (await records()).filter((r) => !seen.has(r.id));
    t.equal(left.length, 1, `round ${round}: one record left behind`);
    const [record] = left;
    if (!record) break;
    seen.add(record.id);
    // as the api left it when it died (read now, the reconciler may already have run it)
    t.equal(recorded, `${record.id} queued`, `round ${round}: left queued, on no queue`);
    const done = await finished(record.id);
    t.equal(done?.status, 'completed', `round ${round}: queued again by the reconciler and run`);
    const tookMs = Date.parse(done?.finishedAt ?? '') - Date.parse(record.created_at);
    t.ok(tookMs <= BOUND_MS, `round ${round}: finished ${tookMs} ms after it was recorded (bound ${BOUND_MS} ms)`);
  }
  const unfinished = (await records()).filter((r) => r.status === 'queued' || r.status === 'active');
  t.same(unfinished, [], 'no record left unfinished');

  const api = await serve({ ...env, MANIFOLD_ROLE: 'api' }, { endpoints: web2zip });
  t.teardown(() => api.close());
  await api.engine.start();
  const submitted = await fetch(`${api.url}/api/tools/web2zip?url=${encodeURIComponent(site)}&async=true`, { headers: { 'X-API-Key': TEST_KEY } });
  const body = (await submitted.json()) as any;
  t.equal(submitted.status, 202, `the key submits again: ${JSON.stringify(body)}`);
  t.match(await jobWhenDone(api.url, body.result.job_id, TEST_KEY), { status: 'completed' });
});

import t from 'tap';
import { startRedis } from '../limits/redis-server.js';
import { serve, tempDataDir, TEST_KEY, type Served } from '../support/serve.js';
import { jobWhenDone, startReceiver, startSite, web2zip } from './site.js';

/**
 * Jobs across instances on a real redis-server (BullMQ): an `api` instance enqueues,
 * a separate `worker` instance runs, the `api` instance reads back. The instances
 * share one DATA_DIR (the SQLite file and hosted files), as a fleet shares
 * PostgreSQL and S3.
 */
const redisUrl = await startRedis(t, t.testdir());
if (!redisUrl) throw new Error('redis-server is not installed: apt-get install -y redis-server');
const dataDir = tempDataDir();
const SECRET = 'fleet-webhook-secret';
const env = { REDIS_URL: redisUrl, DATA_DIR: dataDir, WEBHOOK_SECRET: SECRET, WEBHOOK_BACKOFF_MS: '200', TEST_KEY_MAX_JOBS: '2' };
const headers = { 'X-API-Key': TEST_KEY };
const get = async (url: string) => {
  const res = await fetch(url, { headers });
  return { status: res.status, body: await res.json() };
};
const instance = async (role: 'api' | 'worker') => {
  const served = await serve({ ...env, MANIFOLD_ROLE: role }, { endpoints: web2zip });
  await served.engine.start();
  return served;
};

const site = await startSite(t, { assets: 2 });
const target = encodeURIComponent(site);
let api: Served = await instance('api');
let worker: Served | undefined;
t.teardown(async () => {
  await api.close();
  await worker?.close();
});

t.test('a job waits while no worker runs, survives a restart of the api instance, and is run by a worker that starts later', async (t) => {
  const first = await get(`${api.url}/api/tools/web2zip?url=${target}&async=true`);
  t.equal(first.status, 202, JSON.stringify(first.body));
  const second = await get(`${api.url}/api/tools/web2zip?url=${target}&async=true&x=2`);
  t.equal(second.status, 202);

  const over = await get(`${api.url}/api/tools/web2zip?url=${target}&async=true`);
  t.equal(over.status, 429, 'the test key cannot fill the queue');
  t.equal(over.body.error, 'rate_limited');
  t.match(over.body.message, /TEST_KEY_MAX_JOBS=2/, 'the 429 names the limit');

  await new Promise((r) => setTimeout(r, 300));
  t.match((await get(`${api.url}/api/jobs/${first.body.result.job_id}`)).body.result, { status: 'queued', progress: 0 }, 'no worker: it waits');

  await api.close();
  api = await instance('api');
  t.match((await get(`${api.url}/api/jobs/${first.body.result.job_id}`)).body.result, { status: 'queued' }, 'still there after the restart');

  worker = await instance('worker');
  const done = await jobWhenDone(api.url, first.body.result.job_id, TEST_KEY);
  t.match(done, { status: 'completed', progress: 100, result: { copiedFilesAmount: 3, download_url: String } });
  const other = await jobWhenDone(api.url, second.body.result.job_id, TEST_KEY);
  t.match(other, { status: 'completed' }, JSON.stringify(other.error ?? ''));

  const metrics = await (await fetch(`${api.url}/metrics`)).text();
  t.match(metrics, /manifold_jobs\{status="completed"\} 2/, 'manifold_jobs counts them');
  t.match(metrics, /manifold_jobs\{status="queued"\} 0/);
});

t.test('the worker serves nothing public, and an api instance never runs a job: its synchronous calls wait for the worker', async (t) => {
  t.ok(worker, 'the previous test started a worker');
  t.equal((await fetch(`${worker!.url}/api/tools/web2zip?url=${target}`, { headers })).status, 404);
  t.equal((await fetch(`${worker!.url}/health`)).status, 200);
  const sync = await get(`${api.url}/api/tools/web2zip?url=${target}`);
  t.equal(sync.status, 200);
  t.match(sync.body.result, { copiedFilesAmount: 3, download_url: String });
  const stream = await fetch(`${api.url}/api/tools/web2zip?url=${target}&stream=true`, { headers });
  t.equal(stream.status, 200);
  t.equal(stream.headers.get('content-type'), 'application/zip');
  t.equal((await stream.arrayBuffer()).byteLength, Number(stream.headers.get('content-length')), 'the bytes of the ZIP the worker made');
  const bad = await get(`${api.url}/api/tools/web2zip?url=${encodeURIComponent('http://127.0.0.1:9/')}`);
  t.equal(bad.status, 502, "the worker's error, answered as the call's own");
});

t.test('a job running on a worker that stops is run again by the next worker', async (t) => {
  const slow = await startSite(t, { assets: 2, delayMs: 3000 });
  const accepted = await get(`${api.url}/api/tools/web2zip?url=${encodeURIComponent(slow)}&async=true`);
  const id = accepted.body.result.job_id;
  for (let i = 0; i < 200; i++) {
    if ((await get(`${api.url}/api/jobs/${id}`)).body.result.status === 'active') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal((await get(`${api.url}/api/jobs/${id}`)).body.result.status, 'active', 'running on the worker');
  await worker!.close();
  t.equal((await get(`${api.url}/api/jobs/${id}`)).body.result.status, 'active', 'neither completed nor failed by the shutdown');
  worker = await instance('worker');
  t.match(await jobWhenDone(api.url, id, TEST_KEY), { status: 'completed', result: { copiedFilesAmount: 3 } });
});

t.test('the webhook is signed, and retried after the receiver answers 500', async (t) => {
  const receiver = await startReceiver(t, SECRET, [500]);
  const accepted = await get(`${api.url}/api/tools/web2zip?url=${target}&async=true&callback_url=${encodeURIComponent(receiver.url)}`);
  const job = await jobWhenDone(api.url, accepted.body.result.job_id, TEST_KEY);
  const deliveries = await receiver.received(2);
  t.equal(deliveries.length, 2, 'one failed delivery, one retry');
  for (const delivery of deliveries) {
    t.ok(delivery.valid, 'signed with WEBHOOK_SECRET');
    t.same(JSON.parse(delivery.body), { job_id: job.job_id, status: 'completed', result: job.result });
  }
});

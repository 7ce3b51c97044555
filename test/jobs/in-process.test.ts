import t from 'tap';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { jobWhenDone, startReceiver, startSite, web2zip } from './site.js';

/**
 * Jobs on the embedded defaults (no REDIS_URL, MANIFOLD_ROLE=all): the queue is in
 * the process, the records in SQLite.
 */
const headers = { 'X-API-Key': TEST_KEY };
const get = async (url: string) => {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, body: await res.json() };
};

t.test('async=true answers 202 at once, reports real progress, and keeps exactly the synchronous result', async (t) => {
  const site = await startSite(t, { assets: 8, delayMs: 300 });
  const served = await serve({ TEST_KEY_MAX_JOBS: '5' }, { endpoints: web2zip });
  t.teardown(() => served.close());
  await served.engine.start();

  const target = encodeURIComponent(site);
  const accepted = await get(`${served.url}/api/tools/web2zip?url=${target}&async=true`);
  t.equal(accepted.status, 202);
  t.same(Object.keys(accepted.body), ['status', 'success', 'creator', 'result'], 'the envelope');
  t.match(accepted.body, { status: 202, success: true, result: { job_id: String, status: 'queued' } });
  const id = accepted.body.result.job_id;
  t.equal(accepted.body.result.status_url, `${served.url}/api/jobs/${id}`);
  t.equal(accepted.headers.get('location'), accepted.body.result.status_url);

  // eight assets of 300 ms, four at a time: the job runs over half a second, long enough to be seen under way
  const seen = new Set<string>();
  let job;
  for (;;) {
    job = (await get(`${served.url}/api/jobs/${id}`)).body.result;
    if (job.status === 'active' && job.progress > 10 && job.progress < 90) seen.add(`${job.stage}`);
    if (job.status === 'completed' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 40));
  }
  t.ok(seen.has('fetching assets'), 'progress between 10 and 90 % while the assets arrive');
  t.match(job, { status: 'completed', progress: 100, created_at: String, finished_at: String });

  const sync = await get(`${served.url}/api/tools/web2zip?url=${target}`);
  t.equal(sync.status, 200);
  t.same(job.result, sync.body.result, 'the job result is what the synchronous call answers');
  t.equal(job.result.copiedFilesAmount, 9);
});

t.test('bad requests never become jobs; callback_url passes the SSRF guard', async (t) => {
  const served = await serve({ ALLOW_PRIVATE_URLS: '0' }, { endpoints: web2zip });
  t.teardown(() => served.close());
  const missing = await get(`${served.url}/api/tools/web2zip?async=true`);
  t.match(missing, { status: 400, body: { error: 'missing_parameter' } });
  const refused = await get(
    `${served.url}/api/tools/web2zip?url=https://example.com/&async=true&callback_url=${encodeURIComponent('http://127.0.0.1:9/hook')}`,
  );
  t.match(refused, { status: 400, body: { error: 'unsupported_url', details: [{ param: 'callback_url' }] } });
  const notUrl = await get(`${served.url}/api/tools/web2zip?url=https://example.com/&async=true&callback_url=nope`);
  t.match(notUrl, { status: 400, body: { error: 'invalid_parameter', details: [{ param: 'callback_url' }] } });
  const withoutAsync = await get(`${served.url}/api/tools/web2zip?url=https://example.com/&callback_url=https://example.com/hook`);
  t.match(withoutAsync, { status: 400, body: { details: [{ param: 'callback_url' }] } });
  t.same(await new JobStore(served.engine.database).counts(), { queued: 0, active: 0, completed: 0, failed: 0, cancelled: 0 }, 'no job recorded');
});

t.test('a failed job keeps the error the synchronous call answers, and its webhook is signed', async (t) => {
  const receiver = await startReceiver(t, 'hook-secret');
  const served = await serve({ WEBHOOK_SECRET: 'hook-secret' }, { endpoints: web2zip });
  t.teardown(() => served.close());
  await served.engine.start();
  const dead = encodeURIComponent('http://127.0.0.1:9/');
  const accepted = await get(`${served.url}/api/tools/web2zip?url=${dead}&async=true&callback_url=${encodeURIComponent(receiver.url)}`);
  const job = await jobWhenDone(served.url, accepted.body.result.job_id, TEST_KEY);
  const sync = await get(`${served.url}/api/tools/web2zip?url=${dead}`);
  t.equal(job.status, 'failed');
  t.same(job.error, { error: sync.body.error, message: sync.body.message });
  const [delivery] = await receiver.received(1);
  t.ok(delivery.valid, 'X-Manifold-Signature is the HMAC-SHA256 of the raw body');
  t.same(JSON.parse(delivery.body), { job_id: job.job_id, status: 'failed', error: job.error });
});

t.test('jobs left unfinished by a shutdown run when the instance starts again', async (t) => {
  const site = await startSite(t, { assets: 1 });
  const dataDir = tempDataDir();
  const first = await serve({ DATA_DIR: dataDir }, { endpoints: web2zip });
  // recorded but never run: as if the process had stopped right after the 202
  const store = new JobStore(first.engine.database);
  const waiting = await store.create({ keyId: 'test', endpoint: 'GET /api/tools/web2zip', params: { url: site } });
  await first.close();

  const second = await serve({ DATA_DIR: dataDir }, { endpoints: web2zip });
  t.teardown(() => second.close());
  await second.engine.start();
  const job = await jobWhenDone(second.url, waiting.id, TEST_KEY);
  t.match(job, { status: 'completed', result: { copiedFilesAmount: 2 } });
});

t.test('the OpenAPI document shows async, callback_url and the 202 of a long-running endpoint', async (t) => {
  const served = await serve({}, { endpoints: web2zip });
  t.teardown(() => served.close());
  const doc = await (await fetch(`${served.url}/openapi.json`)).json();
  const op = doc.paths['/api/tools/web2zip'].get;
  const names = op.parameters.map((p: { name: string }) => p.name);
  t.ok(names.includes('async') && names.includes('callback_url'), names.join(', '));
  t.match(op.responses['202'].content['application/json'].schema.properties.result.required, ['job_id', 'status', 'status_url']);
  t.ok(doc.paths['/api/jobs/{id}'] ?? doc.paths['/api/jobs/:id'], 'GET /api/jobs/:id is documented');
});

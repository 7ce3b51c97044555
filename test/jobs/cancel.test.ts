import t from 'tap';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';
import { jobWhenDone, startHangingSite, startReceiver, startSite, web2zip } from './site.js';

/**
 * Cancelling jobs on the embedded defaults (the queue in this process, one job at a time):
 * POST /api/jobs/:id/cancel by the owner and POST /api/admin/jobs/:id/cancel by the admin.
 * A running job's work stops (the site sees its request closed) and frees the one slot; a
 * queued job leaves the line and never starts; a finished one answers 409 job_finished;
 * another key's, 404. What fleets do (BullMQ) is in cancel-fleet.test.ts.
 */
const SECRET = 'cancel-webhook-secret';
const asTest = { 'X-API-Key': TEST_KEY };
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

t.test('cancel a running job and a queued one; finished jobs, other keys and the admin', async (t) => {
  const hanging = await startHangingSite(t);
  const site = await startSite(t, { assets: 1 });
  const receiver = await startReceiver(t, SECRET);
  const served = await serve({ JOBS_CONCURRENCY: '1', TEST_KEY_MAX_JOBS: '10', WEBHOOK_SECRET: SECRET, ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { endpoints: web2zip });
  t.teardown(() => served.close());
  await served.engine.start();
  const call = async (path: string, headers: Record<string, string> = asTest, method = 'GET') => {
    const res = await fetch(served.url + path, { method, headers });
    return { status: res.status, body: await res.json() };
  };
  const submit = async (target: string, callback?: string) => {
    const query = `url=${encodeURIComponent(target)}&async=true${callback ? `&callback_url=${encodeURIComponent(callback)}` : ''}`;
    const accepted = await call(`/api/tools/web2zip?${query}`);
    t.equal(accepted.status, 202);
    return accepted.body.result.job_id as string;
  };
  const cancel = (id: string, headers: Record<string, string> = asTest) => call(`/api/jobs/${id}/cancel`, headers, 'POST');

  // the one slot: a job that would never end on its own
  const running = await submit(hanging.url);
  await hanging.requested;
  const queued = await submit(site, receiver.url);
  t.match((await call(`/api/jobs/${queued}`)).body.result, { status: 'queued' }, 'waiting behind it');

  const other = await served.engine.keys.create({ tier: 'personal', label: 'someone else' });
  const theirs = await cancel(running, { 'X-API-Key': other.key });
  t.match(theirs, { status: 404, body: { error: 'not_found' } }, "another key's job is not found");
  t.match((await call(`/api/jobs/${running}`)).body.result, { status: 'active' }, 'and goes on');
  t.match(await cancel('01zzzzzzzzzzzzzzzzzzzzzzzz'), { status: 404, body: { error: 'not_found' } });
  t.equal((await call(`/api/jobs/${running}/cancel`, {}, 'POST')).status, 401, 'a key is needed');
  t.equal((await call(`/api/jobs/${running}/cancel`, asTest, 'GET')).status, 405, 'POST only');

  // a queued job: out of the line, never started, its webhook says so
  const dropped = await cancel(queued);
  t.equal(dropped.status, 200);
  t.match(dropped.body.result, { job_id: queued, status: 'cancelled', error: { error: 'job_cancelled', message: /its API key/ }, finished_at: String });
  t.notOk('started_at' in dropped.body.result, 'it never started');
  const [delivery] = await receiver.received(1);
  t.ok(delivery.valid, 'signed');
  t.same(JSON.parse(delivery.body), { job_id: queued, status: 'cancelled', error: dropped.body.result.error });

  // the running job: its request to the site is closed, and the slot is free for the next job
  const stopped = await cancel(running);
  t.match(stopped, { status: 200, body: { result: { job_id: running, status: 'cancelled', started_at: String } } });
  await hanging.aborted;
  t.pass('the site saw the running job give up its request');
  const next = await submit(site);
  t.match(await jobWhenDone(served.url, next, TEST_KEY), { status: 'completed', result: { copiedFilesAmount: 2 } }, 'the next job ran in the freed slot');
  t.match((await call(`/api/jobs/${queued}`)).body.result, { status: 'cancelled' }, 'the cancelled queued job never ran');
  t.notOk('started_at' in (await call(`/api/jobs/${queued}`)).body.result);

  // finished jobs: 409 with a stable code, whichever way they ended
  t.match(await cancel(next), { status: 409, body: { error: 'job_finished', message: /completed/, details: [{ param: 'id' }] } });
  t.match(await cancel(running), { status: 409, body: { error: 'job_finished', message: /cancelled/ } }, 'cancelled once');

  // listing by status
  const listed = await call('/api/jobs?status=cancelled');
  t.same(
    listed.body.result.jobs.map((j: { job_id: string }) => j.job_id),
    [queued, running],
  );

  // the admin: any key's job, shown with its key
  const waiting = await new JobStore(served.engine.database).create({ keyId: other.id, endpoint: 'GET /api/tools/web2zip', params: { url: site } });
  t.equal((await call(`/api/admin/jobs/${waiting.id}/cancel`, asTest, 'POST')).status, 403, 'an API key is not the admin token');
  const byAdmin = await call(`/api/admin/jobs/${waiting.id}/cancel`, ADMIN, 'POST');
  t.match(byAdmin, { status: 200, body: { result: { job_id: waiting.id, key_id: other.id, status: 'cancelled', error: { message: /administrator/ } } } });
  t.match(await call(`/api/admin/jobs/${waiting.id}/cancel`, ADMIN, 'POST'), { status: 409, body: { error: 'job_finished' } });
  t.match(await call('/api/admin/jobs/01zzzzzzzzzzzzzzzzzzzzzzzz/cancel', ADMIN, 'POST'), { status: 404 });

  const metrics = await (await fetch(`${served.url}/metrics`)).text();
  t.match(metrics, /manifold_jobs\{status="cancelled"\} 3/, 'manifold_jobs counts them');
});

t.test('the OpenAPI document shows both cancel routes with their 404 and 409', async (t) => {
  const served = await serve({}, { endpoints: web2zip });
  t.teardown(() => served.close());
  const doc = await (await fetch(`${served.url}/openapi.json`)).json();
  for (const path of ['/api/jobs/{id}/cancel', '/api/admin/jobs/{id}/cancel']) {
    const op = doc.paths[path]?.post;
    t.ok(op, `POST ${path}`);
    t.match(op?.responses, { 200: Object, 404: { $ref: '#/components/responses/404' }, 409: { $ref: '#/components/responses/409' } });
  }
  t.match(doc.components.responses['409'].content['application/json'].schema.allOf[1].properties.error.enum, ['job_finished', 'job_cancelled']);
  t.ok(doc.paths['/api/jobs'].get.parameters.find((p: { name: string }) => p.name === 'status').schema.enum.includes('cancelled'), 'the listing filters by it');
});

/**
 * GET /api/jobs (the calling key's jobs) and GET /api/admin/jobs (every key's), on SQLite
 * and PostgreSQL: newest first, paged by cursor, filtered by status (and key for the admin),
 * each job as GET /api/jobs/:id answers it, and 400s naming the parameter.
 */
import t from 'tap';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: a key lists its own jobs and the admin every key's`, async (t) => {
    const served = await serve({ ...(await dialect.env(t)), ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    t.teardown(() => served.close());
    const get = async (path: string, headers: Record<string, string>) => {
      const res = await fetch(served.url + path, { headers });
      return { status: res.status, body: await res.json() };
    };
    // records only: the engine is not started, so no worker takes them
    const store = new JobStore(served.engine.database);
    const owner = await served.engine.keys.create({ tier: 'personal', label: 'owner' });
    const asOwner = { 'X-API-Key': owner.key };
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await store.create({ keyId: owner.id, endpoint: 'GET /api/tools/web2zip', params: { i } })).id);
    await store.start(made[1]);
    await store.complete(made[1], { ok: true });
    await store.start(made[3]);
    await store.fail(made[3], { error: 'upstream_error', message: 'The site did not answer', status: 502 });
    await store.start(made[4]);
    const other = (await store.create({ keyId: 'test', endpoint: 'GET /api/tools/web2zip', params: {} })).id;
    const newestFirst = [...made].reverse();

    // every page of two, following next_cursor
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const listed = await get(`/api/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`, asOwner);
      t.equal(listed.status, 200);
      t.ok(listed.body.result.jobs.length <= 2);
      for (const job of listed.body.result.jobs) {
        t.same(job, (await get(`/api/jobs/${job.job_id}`, asOwner)).body.result, 'each as GET /api/jobs/:id answers it');
        seen.push(job.job_id);
      }
      cursor = listed.body.result.next_cursor;
    } while (cursor);
    t.same(seen, newestFirst, "newest first, every job once, none of another key's");

    const failed = await get('/api/jobs?status=failed', asOwner);
    t.match(failed.body.result, { jobs: [{ job_id: made[3], status: 'failed', error: { error: 'upstream_error' } }], next_cursor: null });
    const active = await get('/api/jobs?status=active', asOwner);
    t.same(
      active.body.result.jobs.map((j: { job_id: string }) => j.job_id),
      [made[4]],
    );
    const queued = await get('/api/jobs?status=queued', asOwner);
    t.same(
      queued.body.result.jobs.map((j: { job_id: string }) => j.job_id),
      [made[2], made[0]],
    );
    const theirs = await get('/api/jobs', { 'X-API-Key': TEST_KEY });
    t.same(
      theirs.body.result.jobs.map((j: { job_id: string }) => j.job_id),
      [other],
      'the test key sees only its own',
    );

    t.match(await get('/api/jobs', {}), { status: 401 }, 'a key is needed');
    t.match(await get('/api/jobs?status=done', asOwner), { status: 400, body: { error: 'invalid_parameter', details: [{ param: 'status' }] } });
    t.match(await get('/api/jobs?limit=0', asOwner), { status: 400, body: { details: [{ param: 'limit' }] } });
    t.match(await get('/api/jobs?limit=101', asOwner), { status: 400, body: { details: [{ param: 'limit' }] } });
    t.match(await get('/api/jobs?cursor=..%2F', asOwner), { status: 400, body: { details: [{ param: 'cursor' }] } });

    // the admin listing: every key, each job with its key
    t.equal((await get('/api/admin/jobs', {})).status, 403, 'no admin token');
    t.equal((await get('/api/admin/jobs', asOwner)).status, 403, 'an API key is not the admin token');
    const all = await get('/api/admin/jobs', ADMIN);
    t.equal(all.status, 200);
    t.same(
      all.body.result.jobs.map((j: { job_id: string; key_id: string }) => [j.job_id, j.key_id]),
      [[other, 'test'], ...newestFirst.map((id) => [id, owner.id])],
    );
    const ownersQueued = await get(`/api/admin/jobs?key=${owner.id}&status=queued&limit=1`, ADMIN);
    t.match(ownersQueued.body.result, { jobs: [{ job_id: made[2], key_id: owner.id, status: 'queued' }], next_cursor: made[2] });
    const next = await get(`/api/admin/jobs?key=${owner.id}&status=queued&limit=1&cursor=${made[2]}`, ADMIN);
    t.match(next.body.result, { jobs: [{ job_id: made[0] }], next_cursor: null }, 'the last page says so');
    const last = await get(`/api/admin/jobs?key=${owner.id}&status=queued&limit=1&cursor=${made[0]}`, ADMIN);
    t.same(last.body.result, { jobs: [], next_cursor: null }, 'nothing older');
    t.match(await get('/api/admin/jobs?status=nope', ADMIN), { status: 400, body: { details: [{ param: 'status' }] } });
  });
}

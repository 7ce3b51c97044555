import { Kysely, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import t from 'tap';
import { openDatabase } from '../../engine/platform/db/database.js';
import { migrationProvider } from '../../engine/platform/db/migrations.js';
import { Sqlite } from '../../engine/platform/db/sqlite-driver.js';
import { JobStore } from '../../engine/pipeline/jobs/store.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: a job's life is recorded, and it belongs to its key`, async (t) => {
    const db = await dialect.open(t);
    const store = new JobStore(db);
    const job = await store.create({ keyId: 'key_a', endpoint: 'GET /api/download/ytmp3', params: { url: 'https://youtu.be/x', quality: '128' } });
    t.match(job, { status: 'queued', progress: 0, stage: null, params: { url: 'https://youtu.be/x', quality: '128' }, finishedAt: null });
    t.match(job.id, /^[0-9a-z]{26}$/);
    t.equal((await store.get(job.id, 'key_a'))?.id, job.id, 'the owner finds it');
    t.equal(await store.get(job.id, 'key_b'), undefined, 'another key does not');
    t.equal(await store.get('nope', 'key_a'), undefined);
    t.equal(await store.pending('key_a'), 1);

    await store.progress(job.id, 40, 'downloading');
    t.equal((await store.get(job.id))?.progress, 0, 'no progress before the job starts');
    t.match(await store.start(job.id), { status: 'active', startedAt: String });
    await store.progress(job.id, 40.4, 'downloading');
    t.match(await store.get(job.id), { progress: 40, stage: 'downloading' });
    await store.progress(job.id, 250);
    t.match(await store.get(job.id), { progress: 100, stage: 'downloading' }, 'clamped; the stage stays');
    t.equal(await store.pending('key_a'), 1, 'running counts as pending');

    t.ok(await store.complete(job.id, { download_url: 'http://x/files/a.mp3', size: 3 }));
    t.match(await store.get(job.id), { status: 'completed', progress: 100, result: { download_url: 'http://x/files/a.mp3', size: 3 }, finishedAt: String });
    t.notOk(await store.fail(job.id, { error: 'internal_error', message: 'late' }), 'a finished job stays finished');
    t.equal(await store.start(job.id), undefined, 'and is not run again');
    t.equal(await store.pending('key_a'), 0);

    const failing = await store.create({ keyId: 'key_a', endpoint: 'GET /api/tools/web2zip', params: {}, callbackUrl: 'https://example.com/hook' });
    const waiting = await store.create({ keyId: 'key_b', endpoint: 'GET /api/tools/web2zip', params: {} });
    t.same(await store.unfinished(), [failing.id, waiting.id], 'unfinished jobs, oldest first');
    await store.start(failing.id);
    t.ok(await store.fail(failing.id, { error: 'upstream_error', message: 'Upstream x answered 500', status: 502 }));
    t.match(await store.get(failing.id), { status: 'failed', error: { error: 'upstream_error', status: 502 }, callbackUrl: 'https://example.com/hook' });
    t.same(await store.counts(), { queued: 1, active: 0, completed: 1, failed: 1, cancelled: 0 });
  });

  t.test(`${dialect.name}: a queued or running job is cancelled once, by its key or any key's admin; a finished one is not`, async (t) => {
    const db = await dialect.open(t);
    const store = new JobStore(db);
    const why = { error: 'job_cancelled', message: 'The job was cancelled by its API key' };
    const queued = await store.create({ keyId: 'key_a', endpoint: 'GET /api/tools/web2zip', params: {} });
    const running = await store.create({ keyId: 'key_a', endpoint: 'GET /api/tools/web2zip', params: {} });
    await store.start(running.id);

    t.same(await store.cancel(queued.id, why, 'key_b'), { absent: true }, "another key's job is absent");
    t.match(await store.cancel(queued.id, why, 'key_a'), {
      cancelled: { id: queued.id, status: 'cancelled', error: why, finishedAt: String, startedAt: null },
    });
    t.equal(await store.start(queued.id), undefined, 'a cancelled job is never started');
    t.match(await store.cancel(queued.id, why, 'key_a'), { finished: { status: 'cancelled' } }, 'cancelled once');

    t.match(await store.cancel(running.id, why), { cancelled: { status: 'cancelled', startedAt: String } }, 'the admin (no key) cancels any job');
    t.notOk(await store.progress(running.id, 50), 'a progress write tells the worker its job is no longer active');
    t.notOk(await store.complete(running.id, { late: true }), 'its late answer is not recorded');
    t.match(await store.get(running.id), { status: 'cancelled', error: why });
    t.equal(await store.pending('key_a'), 0, 'cancelled jobs no longer count against the key');

    const done = await store.create({ keyId: 'key_a', endpoint: 'GET /api/tools/web2zip', params: {} });
    await store.start(done.id);
    await store.complete(done.id, {});
    t.match(await store.cancel(done.id, why, 'key_a'), { finished: { status: 'completed' } });
    t.same(await store.cancel('01zzzzzzzzzzzzzzzzzzzzzzzz', why), { absent: true });
    t.same(await store.counts(), { queued: 0, active: 0, completed: 1, failed: 0, cancelled: 2 });
    t.same(
      (await store.list({ status: 'cancelled', limit: 10 })).jobs.map((j) => j.id),
      [running.id, queued.id],
    );
    // the status check (migration 0008) admits `cancelled` and still refuses anything else
    await t.rejects(
      db.kysely
        .updateTable('jobs')
        .set({ status: 'paused' as never })
        .where('id', '=', done.id)
        .execute(),
    );
  });
}

t.test('sqlite: migration 0008 rebuilds the jobs table with its rows and indexes, and cancelled is allowed', async (t) => {
  const file = `${t.testdir()}/manifold.db`;
  // a database as it stood before 0008, with a job in it
  const before = new Kysely<any>({ dialect: new SqliteDialect({ database: new Sqlite(file) }) });
  const { error } = await new Migrator({ db: before, provider: migrationProvider('sqlite') }).migrateTo('0007-usage-figures');
  t.error(error);
  const row = {
    id: '01aaaaaaaaaaaaaaaaaaaaaaaa',
    key_id: 'key_a',
    endpoint: 'GET /api/tools/web2zip',
    status: 'active',
    progress: 40,
    stage: 'fetching assets',
  };
  await before
    .insertInto('jobs')
    .values({ ...row, params: '{"url":"https://example.com"}', created_at: '2026-11-28T00:00:00.000Z', started_at: '2026-11-28T00:00:01.000Z' })
    .execute();
  await t.rejects(before.updateTable('jobs').set({ status: 'cancelled' }).execute(), 'cancelled is refused before 0008');
  await before.destroy();

  const db = openDatabase({ file });
  t.teardown(() => db.close());
  await db.ready;
  const store = new JobStore(db);
  t.match(
    await store.get(row.id),
    { keyId: 'key_a', status: 'active', progress: 40, stage: 'fetching assets', params: { url: 'https://example.com' } },
    'the row is kept',
  );
  t.match(await store.cancel(row.id, { error: 'job_cancelled', message: 'by its API key' }, 'key_a'), { cancelled: { status: 'cancelled' } });
  const { sql } = await import('kysely');
  const indexes = (
    await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'jobs' AND sql IS NOT NULL ORDER BY name`.execute(db.kysely)
  ).rows;
  t.same(
    indexes.map((i) => i.name),
    ['jobs_key', 'jobs_status'],
    'its indexes are made again',
  );
});

t.test('GET /api/jobs/:id answers the owner in the contract shape and 404 to anyone else', async (t) => {
  const served = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
  t.teardown(() => served.close());
  const store = new JobStore(served.engine.database);
  const job = await store.create({ keyId: 'test', endpoint: 'GET /api/tools/web2zip', params: { url: 'https://example.com' } });
  await store.start(job.id);
  await store.complete(job.id, { url: 'http://x/files/a.zip' });

  const read = async (key: string, id = job.id) => {
    const res = await fetch(`${served.url}/api/jobs/${id}`, { headers: { 'X-API-Key': key } });
    return { status: res.status, body: await res.json() };
  };
  const mine = await read(TEST_KEY);
  t.equal(mine.status, 200);
  t.match(mine.body.result, {
    job_id: job.id,
    status: 'completed',
    progress: 100,
    result: { url: 'http://x/files/a.zip' },
    created_at: String,
    finished_at: String,
  });
  t.notOk('params' in mine.body.result || 'keyId' in mine.body.result, 'neither the params nor the owner are shown');

  const created = await (
    await fetch(`${served.url}/api/admin/keys`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    })
  ).json();
  const other = await read(created.result.key);
  t.equal(other.status, 404, "another key's job is not found");
  t.equal(other.body.error, 'not_found');
  const unknown = await read(created.result.key, '01zzzzzzzzzzzzzzzzzzzzzzzz');
  t.same(
    { ...other.body, message: other.body.message.replace(job.id, 'ID') },
    { ...unknown.body, message: unknown.body.message.replace('01zzzzzzzzzzzzzzzzzzzzzzzz', 'ID') },
    'the same answer as an unknown id',
  );
  t.equal((await fetch(`${served.url}/api/jobs/${job.id}`)).status, 401, 'a key is required');
});

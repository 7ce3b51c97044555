/**
 * /health/ready on the embedded defaults (the SQLite file, no Redis) and with hosted files on
 * S3 (s3rver behind the storage tests' recording proxy, which can make the bucket fail).
 */
import t from 'tap';
import { serve } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { BUCKET, startLocalS3 } from '../storage/s3-server.js';

const ready = async (url: string) => {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, body: await res.json() };
};

/**
 * The first check opens the SQLite file and applies its migrations (the database loads on
 * first use), which may outlast one check's deadline: not ready until it is done, as is true.
 * Asked until ready, at most `bound` ms.
 */
async function readyAtLast(url: string, bound = 15_000) {
  const started = performance.now();
  for (;;) {
    const answer = await ready(url);
    if (answer.status === 200 || performance.now() - started > bound) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

t.test('embedded: only the SQLite database is asked', async (t) => {
  const served = await serve({}, { endpoints: testEndpoints().endpoints });
  t.teardown(() => served.close());
  const { status, body } = await readyAtLast(served.url);
  t.equal(status, 200);
  t.same(Object.keys(body.checks), ['database']);
  t.equal(body.checks.database.ok, true);
});

t.test('S3: the bucket answers HeadBucket, and a bucket that fails makes the instance not ready', async (t) => {
  const s3 = await startLocalS3();
  t.teardown(() => s3.close());
  const served = await serve(s3.env, { endpoints: testEndpoints().endpoints });
  t.teardown(() => served.close());
  const up = await readyAtLast(served.url);
  t.equal(up.status, 200);
  t.equal(up.body.checks.s3.ok, true);
  t.ok(
    s3.requests.some((r) => r.method === 'HEAD' && r.url.replace(/\?.*/, '').replace(/\/$/, '') === `/${BUCKET}`),
    'a HEAD of the bucket',
  );

  s3.failWhen = (r) => r.method === 'HEAD' && r.url.replace(/\?.*/, '').replace(/\/$/, '') === `/${BUCKET}`;
  const down = await ready(served.url);
  t.equal(down.status, 503);
  t.match(down.body, { success: false, error: 'not_ready', details: [{ dependency: 's3' }] });
  t.equal(down.body.details.length, 1, 'only S3 failed');
  s3.failWhen = undefined;
  t.equal((await ready(served.url)).status, 200, 'ready again once it answers');
});

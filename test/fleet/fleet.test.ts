import t, { type Test } from 'tap';
import nodemailer from 'nodemailer';
import { jobWhenDone, startReceiver, startSite } from '../jobs/site.js';
import { freePort } from '../support/free-port.js';
import { ADMIN_TOKEN, TEST_KEY, startEngine, startServices, type EngineProcess, type Services } from './fleet.js';

/**
 * The fleet as separate OS processes, started the way a host starts them (`npm start`'s
 * entry): two `MANIFOLD_ROLE=api` instances on their own ports and one
 * `MANIFOLD_ROLE=worker`, on one PostgreSQL, one Redis and one S3 bucket (s3rver), each
 * with its own empty DATA_DIR — so whatever one instance sees of another's work came
 * through the shared services. Every upstream points at a local fixture server.
 */
const RPM = 10;
const PUBLIC_BASE_URL = 'http://manifold.fleet.test';
const WEBHOOK_SECRET = 'fleet-webhook-secret';
const MAIL_DOMAIN = 'mail.fleet.test';
const services = await startServices(t, {
  PERSONAL_KEY_RPM: String(RPM),
  TEST_KEY_RPM: '1000000',
  TEST_KEY_MAX_JOBS: '5',
  WEBHOOK_SECRET,
  WEBHOOK_BACKOFF_MS: '200',
  MAIL_DOMAIN,
});
if ('missing' in services) t.plan(0, `needs PostgreSQL and Redis: ${services.missing}`);
else await fleet(services);

async function fleet({ env, s3 }: Services) {
  // one public address for all, as behind the host's proxy: links name it, not the instance that made them
  // each api instance receives temp mail on its own SMTP port, as each host would on port 25
  const smtpPorts = [await freePort(), await freePort()];
  const start = (role: 'api' | 'worker', smtpPort?: number) => startEngine(t, smtpPort ? { ...env, SMTP_PORT: String(smtpPort) } : env, role, PUBLIC_BASE_URL);
  const [api1, api2] = await Promise.all([start('api', smtpPorts[0]), start('api', smtpPorts[1])]);
  let worker = await start('worker');
  // a job's page: 12 images, each answered after 300 ms, so the job runs long enough to be seen in progress
  const site = await startSite(t, { assets: 12, delayMs: 300 });
  const target = encodeURIComponent(site);

  const call = async (instance: EngineProcess, pathAndQuery: string, init: RequestInit & { key?: string } = {}) => {
    const { key = TEST_KEY, ...rest } = init;
    const res = await fetch(`${instance.url}${pathAndQuery}`, { redirect: 'manual', ...rest, headers: { 'X-API-Key': key, ...(rest.headers as object) } });
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, headers: res.headers, body };
  };
  const admin = (instance: EngineProcess, pathAndQuery: string, init: RequestInit = {}) =>
    call(instance, pathAndQuery, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' } });
  const createKey = async (t: Test, instance: EngineProcess, label: string) => {
    const created = await admin(instance, '/api/admin/keys', { method: 'POST', body: JSON.stringify({ tier: 'personal', label }) });
    t.equal(created.status, 200, `key "${label}" created`);
    return created.body.result as { id: string; key: string };
  };

  t.test('the processes are what the host runs: two api instances and a worker, each its own process', async (t) => {
    t.equal(new Set([api1.pid, api2.pid, worker.pid, process.pid]).size, 4);
    for (const instance of [api1, api2, worker]) t.equal((await fetch(`${instance.url}/health`)).status, 200, `${instance.role} /health`);
    t.equal((await call(worker, '/api/fun/quote')).status, 404, 'the worker serves no endpoints');
  });

  t.test('a key created through the admin API of api1 works on api2, and revoking it on api2 refuses it on api1', async (t) => {
    const key = await createKey(t, api1, 'made on api1');
    const checked = await call(api2, '/checkapikey', { key: key.key });
    t.equal(checked.status, 200);
    t.match(checked.body.result, { tier: 'personal', label: 'made on api1' });
    t.ok(
      (await admin(api2, '/api/admin/keys')).body.result.some((k: { id: string }) => k.id === key.id),
      'api2 lists it',
    );
    t.equal((await call(api1, '/api/fun/quote', { key: key.key })).status, 200);
    t.equal((await admin(api2, `/api/admin/keys/${key.id}`, { method: 'DELETE' })).status, 200);
    t.equal((await call(api1, '/api/fun/quote', { key: key.key })).status, 401, 'revoked on api2, refused on api1');
  });

  t.test('a short link made on api1 resolves on api2, which counts the click', async (t) => {
    const long = `https://example.com/fleet/${Date.now()}?q=1`;
    const made = await call(api1, `/api/tools/tinyurl?url=${encodeURIComponent(long)}`);
    t.equal(made.status, 200);
    const code = new URL(made.body.result).pathname.replace('/s/', '');
    const followed = await fetch(`${api2.url}/s/${code}`, { redirect: 'manual' });
    t.equal(followed.status, 302);
    t.equal(followed.headers.get('location'), long);
    t.match((await call(api1, `/api/tools/shortstats?code=${code}`)).body.result, { url: long, clicks: 1 }, 'the click made on api2, seen by api1');
  });

  let limitedKey: { id: string; key: string };
  t.test(`the rate limit is one budget across both api instances (PERSONAL_KEY_RPM=${RPM})`, async (t) => {
    limitedKey = await createKey(t, api1, 'rate limited');
    const answers: { instance: string; status: number; remaining: string | null }[] = [];
    for (let i = 0; i < RPM + 4; i++) {
      const instance = i % 2 ? api2 : api1;
      const res = await call(instance, '/api/fun/quote', { key: limitedKey.key });
      answers.push({ instance: instance === api1 ? 'api1' : 'api2', status: res.status, remaining: res.headers.get('ratelimit-remaining') });
    }
    t.same(
      answers.map((a) => a.status),
      [...Array(RPM).fill(200), 429, 429, 429, 429],
      'the first RPM requests pass, alternating between instances; then both refuse',
    );
    t.same(
      answers.slice(0, RPM).map((a) => Number(a.remaining)),
      Array.from({ length: RPM }, (_, i) => RPM - 1 - i),
      'each instance sees what the other spent',
    );
  });

  t.test('the usage view counts the admitted requests of both instances', async (t) => {
    // each instance writes its counts about every second: wait for both batches
    let usage: any;
    const deadline = Date.now() + 10_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      usage = (await admin(api2, `/api/admin/usage?key=${limitedKey.id}`)).body.result;
    } while (usage.total < RPM && Date.now() < deadline);
    t.equal(usage.total, RPM, 'the 429s are not counted; the 5 + 5 admitted are');
    t.equal(usage.by_endpoint.length, 1);
    t.match(usage.by_endpoint[0], { endpoint: 'GET /api/fun/quote', requests: RPM, requests_2xx: RPM, requests_4xx: 0 });

    // /checkapikey adds the answering instance's unwritten counts to the shared ones
    const key = await createKey(t, api1, 'counted');
    for (const instance of [api1, api2, api2, api2]) t.equal((await call(instance, '/api/fun/quote', { key: key.key })).status, 200);
    // each /checkapikey counts itself too
    let checked: any;
    let checks = 0;
    const until = Date.now() + 10_000;
    do {
      await new Promise((resolve) => setTimeout(resolve, 300));
      checked = (await call(api1, '/checkapikey', { key: key.key })).body.result;
      checks++;
    } while (checked.requests_total < 4 + checks && Date.now() < until);
    t.match(checked, { requests_total: 4 + checks, requests_today: 4 + checks }, '/checkapikey on api1 counts the requests made on api2');
  });

  t.test('async=true on api1 runs on the worker; api2 shows its progress, then the result the synchronous call gives, with the file in S3', async (t) => {
    const accepted = await call(api1, `/api/tools/web2zip?url=${target}&async=true`);
    t.equal(accepted.status, 202);
    const id = accepted.body.result.job_id;
    const seen: { status: string; progress: number; stage?: string }[] = [];
    let job: any;
    const deadline = Date.now() + 30_000;
    do {
      job = (await call(api2, `/api/jobs/${id}`)).body.result;
      seen.push({ status: job.status, progress: job.progress, stage: job.stage });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } while (job.status !== 'completed' && job.status !== 'failed' && Date.now() < deadline);
    t.ok(
      seen.some((s) => s.status === 'active' && s.progress > 10 && s.progress < 90 && s.stage === 'fetching assets'),
      `api2 saw the worker's progress between assets: ${JSON.stringify(seen.filter((s, i) => i === 0 || s.progress !== seen[i - 1].progress))}`,
    );
    t.equal(job.status, 'completed');
    t.equal(job.progress, 100);

    const sync = await call(api2, `/api/tools/web2zip?url=${target}`);
    t.equal(sync.status, 200, 'the synchronous call (run by the worker too, waited for)');
    t.same(job.result, sync.body.result, 'the same result (files are named by their content: the same ZIP)');
    t.match(job.result, { copiedFilesAmount: 13, skipped: 0, download_url: new RegExp(`^${PUBLIC_BASE_URL}/files/`) });

    const name = new URL(job.result.download_url).pathname.split('/').pop()!;
    t.ok(
      s3.requests.some((r) => r.method === 'PUT' && r.url.includes(`/files/${name}`)),
      'the worker put the ZIP in the bucket',
    );
    const bodies = await Promise.all(
      [api1, api2].map(async (instance) => {
        const res = await fetch(`${instance.url}/files/${name}`);
        t.equal(res.status, 200, `${instance.url === api1.url ? 'api1' : 'api2'} serves it`);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
    t.equal(bodies[0].length, job.result.size);
    t.ok(bodies[0].equals(bodies[1]), 'the same bytes through both');
    t.equal(bodies[0].subarray(0, 2).toString(), 'PK', 'a ZIP');
  });

  t.test('a temp-mail address made on api1 receives mail through api2 and reads it on both', async (t) => {
    const box = (await call(api1, '/api/tempmail/generate')).body.result;
    t.match(box.email, new RegExp(`@${MAIL_DOMAIN.replace(/\./g, '\\.')}$`));
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtpPorts[1], secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'ada@example.com', to: box.email, subject: 'across the fleet', text: 'delivered to api2' });
    for (const instance of [api1, api2]) {
      const inbox = (await call(instance, `/api/tempmail/inbox?email=${encodeURIComponent(box.email)}&token=${box.token}`)).body.result;
      t.match(inbox, [{ subject: 'across the fleet' }], `${instance === api1 ? 'api1' : 'api2'} lists the message`);
    }
  });

  t.test('a file uploaded to api2 is served by api1', async (t) => {
    const form = new FormData();
    const bytes = Buffer.from(`fleet upload ${Date.now()}\n`);
    form.append('file', new Blob([bytes], { type: 'text/plain' }), 'note.txt');
    const uploaded = await call(api2, '/api/tools/upload', { method: 'POST', body: form });
    t.equal(uploaded.status, 200);
    const name = new URL(uploaded.body.result.url).pathname;
    const served = await fetch(`${api1.url}${name}`);
    t.equal(served.status, 200);
    t.ok(Buffer.from(await served.arrayBuffer()).equals(bytes), 'the same bytes');
  });

  t.test('a job waits while no worker runs and completes when one starts; its webhook arrives signed', async (t) => {
    await worker.stop('SIGTERM');
    const receiver = await startReceiver(t, WEBHOOK_SECRET);
    const accepted = await call(api2, `/api/tools/web2zip?url=${target}&async=true&n=3&callback_url=${encodeURIComponent(receiver.url)}`);
    t.equal(accepted.status, 202);
    const id = accepted.body.result.job_id;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    t.match((await call(api1, `/api/jobs/${id}`)).body.result, { status: 'queued', progress: 0 }, 'no worker: it waits');
    worker = await start('worker');
    t.match(await jobWhenDone(api1.url, id, TEST_KEY, 30_000), { status: 'completed', progress: 100 });
    const [delivery] = await receiver.received(1);
    t.ok(delivery!.valid, 'signed with WEBHOOK_SECRET');
    t.match(JSON.parse(delivery!.body), { job_id: id, status: 'completed' });
  });

  t.test('/metrics of each api instance counts the requests it answered', async (t) => {
    for (const instance of [api1, api2]) {
      const text = await (await fetch(`${instance.url}/metrics`)).text();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('manifold_http_requests_total{') && l.includes('endpoint="/api/fun/quote"') && l.includes('status="200"'));
      t.ok(line && Number(line.split(' ').pop()) >= 5, `${instance === api1 ? 'api1' : 'api2'}: ${line}`);
    }
  });

  t.test('a job submitted on api1 survives api1 being killed (SIGKILL) and is read back on api2', async (t) => {
    const accepted = await call(api1, `/api/tools/web2zip?url=${target}&async=true&n=2`);
    t.equal(accepted.status, 202);
    await api1.stop('SIGKILL');
    t.equal(
      await fetch(`${api1.url}/health`).then(
        (r) => r.status,
        () => 'refused',
      ),
      'refused',
      'api1 is gone',
    );
    const done = await jobWhenDone(api2.url, accepted.body.result.job_id, TEST_KEY, 30_000);
    t.match(done, { status: 'completed', progress: 100, result: { copiedFilesAmount: 13, download_url: String } });
  });
}

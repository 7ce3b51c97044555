import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { ROOT } from '../../engine/core/root.js';
import { TempMailStore } from '../../engine/features/tempmail/store.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import { completion, fakeOpenAi } from '../ai/fake-openai.js';
import { jobWhenDone, startSite } from '../jobs/site.js';
import { serve, TEST_KEY } from '../support/serve.js';

/**
 * Every key's data is its own. Key A stores something through every endpoint that keeps
 * state (temp-mail addresses and their mail, short links, jobs, AI conversation memory,
 * uploads); key B — a second personal key, and the shared test key's other users — then
 * walks every endpoint that reads or changes stored state, under every path it answers
 * (aliases too), and finds nothing of A's: 404 where A's thing would be, a chosen name or
 * alias it cannot take over, a conversation that starts empty. A's data is intact after
 * the walk. Which endpoints keep state is found from the manifests and the handlers'
 * imports, not listed by hand: an endpoint that starts keeping state without a walk here
 * fails the first test.
 */
const ADMIN_TOKEN = crypto.randomBytes(32).toString('hex');
const DOMAIN = 'mail.test';
const all = loadEndpoints(ENDPOINTS_DIR);

/** Modules whose import makes a code handler read or change stored state. */
const STATEFUL_IMPORT = /from '(?:\.\.\/)+(features\/tempmail|features\/shortener|pipeline\/jobs|platform\/db|features\/ai\/memory)\//;
const handlerOf = (e: (typeof all)[number]) => (e.adapter.kind === 'code' ? String((e.adapter.config as { handler: string }).handler) : undefined);
const stateful = all.filter((e) => {
  const handler = handlerOf(e);
  if (handler) return STATEFUL_IMPORT.test(fs.readFileSync(path.join(ROOT, 'engine', 'kinds', 'handlers', `${handler.split('#')[0]}.ts`), 'utf8'));
  // conversation memory (engine/kinds/adapters/ai.ts) and stored uploads
  return (e.adapter.kind === 'ai' && 'session' in e.params) || e.adapter.kind === 'upload';
});
const byHandler = (name: string) => stateful.filter((e) => handlerOf(e) === `tempgen/${name}`);
const sessions = stateful.filter((e) => e.adapter.kind === 'ai');
const walked = new Set<string>();
/** Every path an endpoint answers: its own and its aliases. */
const pathsOf = (e: (typeof all)[number]) => [e.path, ...e.aliases];

const openai = await fakeOpenAi(t, (_body, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(completion('an answer')));
const served = await serve(
  { MAIL_DOMAIN: DOMAIN, OPENAI_BASE_URL: openai.baseUrl, AI_GATEWAY: '1', ADMIN_TOKEN, TEST_KEY_MAX_JOBS: '5', PERSONAL_KEY_RPM: '1000000' },
  {
    endpoints: all.filter((e) => stateful.includes(e) || e.path === '/api/tools/web2zip'),
    upstreamSpecs: loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')),
  },
);
t.teardown(() => served.close());
await served.engine.start(); // jobs run
const keyA = (await served.engine.keys.create({ tier: 'personal', label: 'tenant A' })).key;
const keyB = (await served.engine.keys.create({ tier: 'personal', label: 'tenant B' })).key;

async function call(method: string, route: string, params: Record<string, string>, key?: string) {
  const url = new URL(route, served.url);
  if (method === 'GET') url.search = new URLSearchParams(params).toString();
  const res = await fetch(url, {
    method,
    redirect: 'manual',
    headers: { ...(key && { 'x-api-key': key }), ...(method !== 'GET' && { 'content-type': 'application/json' }) },
    ...(method !== 'GET' && { body: JSON.stringify(params) }),
  });
  const text = await res.text();
  return { status: res.status, location: res.headers.get('location'), body: text.startsWith('{') ? JSON.parse(text) : text };
}

t.test('temp mail: another key gets 404 for the inbox, messages and deletion, and cannot take a chosen name over', async (t) => {
  const store = new TempMailStore(served.engine.database);
  const generate = async (key: string, name?: string) => {
    const answers = [];
    for (const e of byHandler('tempmail-generate')) {
      walked.add(e.id);
      for (const route of pathsOf(e)) answers.push(await call(e.method, route, name ? { name } : {}, key));
    }
    return answers;
  };
  const [chosen] = await generate(keyA, 'alice.private');
  t.equal(chosen!.status, 200, JSON.stringify(chosen!.body));
  const random = (await generate(keyA)).map((a) => a.body.result);
  const boxes = [chosen!.body.result, ...random];
  for (const box of boxes)
    await store.addMessage(
      box.email,
      {
        from: 'bank@example.com',
        to: box.email,
        subject: `code for ${box.email}`,
        date: new Date().toISOString(),
        text: 'secret 1234',
        html: null,
        attachments: [],
        size: 11,
      },
      10,
    );
  const messageOf = async (box: { email: string }) => (await store.inbox(box.email))[0]!.id;

  for (const taker of [keyB, TEST_KEY]) {
    for (const answer of await generate(taker, 'alice.private'))
      t.match(answer, { status: 400, body: { error: 'invalid_parameter' } }, 'the chosen name cannot be taken over');
  }

  const readers = ['key B', 'key B with the token', 'the shared test key'];
  for (const box of boxes) {
    const messageid = await messageOf(box);
    for (const who of readers) {
      const key = who === 'the shared test key' ? TEST_KEY : keyB;
      const token: Record<string, string> = who === 'key B with the token' ? { token: box.token } : {};
      for (const name of ['tempmail-inbox', 'tempmail-message', 'tempmail-deletemessage', 'tempmail-delete']) {
        for (const e of byHandler(name)) {
          walked.add(e.id);
          for (const route of pathsOf(e)) {
            const forms: Record<string, string>[] = [{ email: box.email }, { username: box.username, domain: DOMAIN }];
            for (const form of forms) {
              const params = { ...form, ...token, ...(name.includes('message') ? { messageid } : {}) };
              const answer = await call(e.method, route, params, key);
              t.match(answer, { status: 404, body: { error: 'not_found' } }, `${who}: ${e.method} ${route} ${JSON.stringify(form)} is 404`);
              t.notMatch(JSON.stringify(answer.body), /secret 1234|bank@example/, 'and shows nothing of the mail');
            }
          }
        }
      }
    }
    const inbox = await call('GET', '/api/tempmail/inbox', { email: box.email }, keyA);
    t.match(inbox, { status: 200, body: { result: [{ id: messageid, text: 'secret 1234' }] } }, `A's ${box.email} and its mail are intact after the walk`);
  }
});

t.test("temp mail on the shared test key: the token handed out with the address is what makes it its creator's", async (t) => {
  const made = await call('GET', '/api/tempmail/generate', { name: 'shared.user' }, TEST_KEY);
  t.equal(made.status, 200);
  const { email, token } = made.body.result;
  t.match(token, /^[A-Za-z0-9_-]{32}$/, 'a token of 192 random bits');
  t.match(await call('GET', '/api/tempmail/inbox', { email }, TEST_KEY), { status: 404 }, 'another user of the test key, without the token: 404');
  t.match(await call('GET', '/api/tempmail/inbox', { email, token: 'A'.repeat(32) }, TEST_KEY), { status: 404 }, 'with a wrong token: 404');
  t.match(await call('GET', '/api/tempmail/inbox', { email, token }, TEST_KEY), { status: 200, body: { result: [] } }, 'with the token: its inbox');
  t.match(await call('GET', '/api/tempmail/inbox', { email, token }, keyB), { status: 404 }, 'the token is no pass for another key');
  t.match(await call('GET', '/api/tempmail/delete', { email }, TEST_KEY), { status: 404 }, 'nor can it be deleted without the token');
  t.match(await call('GET', '/api/tempmail/delete', { email, token }, TEST_KEY), { status: 200, body: { result: { deleted: true } } });
});

t.test('short links: stats and deletion answer to their creator only, an alias is not taken over, the redirect stays public', async (t) => {
  const [shorten] = byHandler('shorturl');
  const target = 'https://example.com/private?invite=a-secret-token';
  const made = await call(shorten!.method, shorten!.path, { url: target, alias: 'alices-link' }, keyA);
  t.equal(made.status, 200, JSON.stringify(made.body));
  const random = await call(shorten!.method, shorten!.path, { url: target }, keyA);
  const codes = ['alices-link', String(random.body.result).split('/s/')[1]!];
  for (const e of byHandler('shorturl')) {
    walked.add(e.id);
    for (const route of pathsOf(e)) {
      for (const key of [keyB, TEST_KEY]) {
        t.match(
          await call(e.method, route, { url: target, alias: 'alices-link' }, key),
          { status: 400, body: { error: 'invalid_parameter' } },
          `${route}: the alias is A's`,
        );
        const own = await call(e.method, route, { url: target }, key);
        t.equal(own.status, 200);
        t.notOk(codes.includes(String(own.body.result).split('/s/')[1]!), `${route}: the same URL gets a link of its own, not A's`);
      }
    }
  }
  for (const e of byHandler('shortstats')) {
    walked.add(e.id);
    for (const route of pathsOf(e))
      for (const key of [keyB, TEST_KEY])
        for (const code of codes) {
          const answer = await call(e.method, route, { code }, key);
          t.match(answer, { status: 404, body: { error: 'not_found' } }, `${route} ${code}: 404`);
          t.notMatch(JSON.stringify(answer.body), /a-secret-token/);
        }
  }
  for (const e of byHandler('shortdelete')) {
    walked.add(e.id);
    for (const route of pathsOf(e))
      for (const key of [keyB, TEST_KEY])
        for (const code of codes)
          t.match(await call(e.method, route, { code }, key), { status: 404, body: { error: 'not_found' } }, `${route} ${code}: 404, not deleted`);
  }
  for (const e of byHandler('shortlink-redirect')) {
    walked.add(e.id);
    for (const code of codes)
      t.match(await call('GET', e.path.replace(/:\w+|\{\w+\}/, code), {}), { status: 302, location: target }, 'the redirect is public, as a link must be');
  }
  for (const code of codes)
    t.match(await call('GET', '/api/tools/shortstats', { code }, keyA), { status: 200, body: { result: { url: target, clicks: 1 } } }, 'A sees its stats');
  t.match(
    await call('GET', '/api/tools/shortdelete', { code: 'alices-link' }, keyA),
    { status: 200, body: { result: { deleted: true } } },
    'A deletes its own link',
  );
  t.match(await call('GET', '/s/alices-link', {}), { status: 404 }, 'which redirects no more');
});

t.test('jobs: another key gets 404', async (t) => {
  const site = await startSite(t, { assets: 1 });
  const submitted = await call('GET', '/api/tools/web2zip', { url: site, async: 'true' }, keyA);
  t.equal(submitted.status, 202);
  const id = submitted.body.result.job_id;
  await jobWhenDone(served.url, id, keyA);
  for (const key of [keyB, TEST_KEY]) t.match(await call('GET', `/api/jobs/${id}`, {}, key), { status: 404, body: { error: 'not_found' } });
});

t.test('AI conversation memory: the same session id under another key starts empty', async (t) => {
  for (const e of sessions) {
    walked.add(e.id);
    const session = `walk-${e.id.replace(/\W+/g, '-')}`;
    const a = await call(e.method, e.path, { q: `my secret is ${e.path}`, session }, keyA);
    t.equal(a.status, 200, `${e.id}: ${JSON.stringify(a.body).slice(0, 200)}`);
    for (const key of [keyB, TEST_KEY]) {
      const sent = openai.bodies.length;
      t.equal((await call(e.method, e.path, { q: 'what is my secret?', session }, key)).status, 200);
      const asked = JSON.stringify(openai.bodies.slice(sent));
      t.notMatch(asked, /my secret is/, `${e.id}: nothing of A's conversation reaches another key's`);
    }
  }
});

t.test('uploads are public by design, under their SHA-256: a link is found only by who has the bytes or was given it', async (t) => {
  for (const e of stateful.filter((s) => s.adapter.kind === 'upload')) {
    walked.add(e.id);
    const form = new FormData();
    form.set('file', new Blob([`tenant A's private notes ${Date.now()}`], { type: 'text/plain' }), 'notes.txt');
    const res = await fetch(new URL(e.path, served.url), { method: e.method, body: form, headers: { 'x-api-key': keyA } });
    const body = (await res.json()) as any;
    t.equal(res.status, 200, JSON.stringify(body));
    t.match(body.result.url, /\/files\/[0-9a-f]{64}\.txt$/, "named by the content's SHA-256: not guessable without the bytes");
  }
});

t.test('keys: another key sees only its own record; key management needs the admin token', async (t) => {
  const own = await call('GET', '/checkapikey', {}, keyB);
  t.match(own, { status: 200, body: { result: { label: 'tenant B' } } });
  t.notMatch(JSON.stringify(own.body), /tenant A/);
  for (const route of ['/api/admin/keys', '/api/admin/usage']) t.match(await call('GET', route, {}, keyB), { status: 403 }, `${route}: 403 with a key`);
});

t.test('the walk covered every endpoint that keeps state', async (t) => {
  t.ok(stateful.length >= 40, `${stateful.length} endpoints keep state`);
  t.same(
    stateful.filter((e) => !walked.has(e.id)).map((e) => e.id),
    [],
    'none left out',
  );
});

/**
 * The harness's `${fixtures}/<file>` URLs: expansion in example params, the list of
 * files an example names, and the fixture server's /_fixtures/ route (only files under
 * the manifest's fixtures/ folder, each recorded when served).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { expandFixtureUrls, fixtureUrlFiles } from './support/fixture-urls.js';
import { startFixtureUpstream } from './support/fixture-upstream.js';

t.test('expansion reaches nested params and leaves other values alone', async (t) => {
  const params = { url: '${fixtures}/a.png', list: ['${fixtures}/b c.jpg?x=1', 3], body: { page: 'see ${fixtures}/p.html#top' }, n: 2, flag: true };
  t.same(expandFixtureUrls(params, 'http://127.0.0.1:9/_fixtures'), {
    url: 'http://127.0.0.1:9/_fixtures/a.png',
    list: ['http://127.0.0.1:9/_fixtures/b c.jpg?x=1', 3],
    body: { page: 'see http://127.0.0.1:9/_fixtures/p.html#top' },
    n: 2,
    flag: true,
  });
  t.same(params.url, '${fixtures}/a.png', 'the manifest example is not changed');
});

t.test('the files an example names: path only, URL-decoded', async (t) => {
  t.same(fixtureUrlFiles({ a: '${fixtures}/a.png', b: ['${fixtures}/dir/b%20c.jpg?x=1#f'], c: 'https://example.com/x.png', d: 5 }), ['a.png', 'dir/b c.jpg']);
  t.same(fixtureUrlFiles({ url: 'https://example.com/${fixtures}' }), [], 'a bare placeholder names no file');
});

t.test('the fixture server serves fixtures/ files and records them', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-fixture-urls-'));
  fs.mkdirSync(path.join(dir, 'fixtures'));
  fs.writeFileSync(path.join(dir, 'fixtures', 'page.html'), '<p>hi</p>');
  fs.writeFileSync(path.join(dir, 'secret.yaml'), 'not a fixture');
  const server = await startFixtureUpstream();
  t.teardown(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  server.use([], dir);
  const base = server.filesBase;

  const page = await fetch(`${base}/page.html`);
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  t.equal(await page.text(), '<p>hi</p>');
  const head = await fetch(`${base}/page.html`, { method: 'HEAD' });
  t.equal(head.headers.get('content-length'), '9', 'HEAD answers the size');
  t.same([...server.hits().files], ['page.html']);
  t.same(server.hits().unmatched, []);

  for (const name of ['missing.png', '..%2Fsecret.yaml', '%2E%2E/secret.yaml']) {
    t.equal((await fetch(`${base}/${name}`)).status, 404, `${name} is not served`);
  }
  t.equal((await fetch(`${base}/page.html`, { method: 'POST', body: 'x' })).status, 404, 'only GET and HEAD');
  t.equal(server.hits().unmatched.length, 4, 'each refused request is reported as unmatched');

  server.use([], dir);
  t.same([...server.hits().files], [], 'the next example starts with nothing served');
});

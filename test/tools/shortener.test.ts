import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tempgen')).filter((e) => /short/.test(e.file));
const auth = { 'x-api-key': TEST_KEY };

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: create, follow, count, persist`, async (t) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-short-'));
    const env = { DATA_DIR: dataDir, ...(await dialect.env(t)) };
    let served = await serve(env, { endpoints });
    t.teardown(() => served.close());
    const target = 'https://example.com/some/long/path?x=1';
    const create = async (params: Record<string, string>, route = '/api/tools/tinyurl') =>
      (await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: auth })).json();

    const made = await create({ url: target });
    t.match(made.result, new RegExp(`^${served.url}/s/[0-9A-Za-z]{7}$`), 'result is the short URL string');
    const again = await create({ url: target }, '/api/tools/shorturl');
    t.equal(again.result, made.result, 'same URL, same code (and the shorturl alias works)');

    const code = made.result.split('/s/')[1];
    const hop = await fetch(made.result, { headers: auth, redirect: 'manual' });
    t.equal(hop.status, 302);
    t.equal(hop.headers.get('location'), target);
    await fetch(made.result, { headers: auth, redirect: 'manual' });

    const stats = await (await fetch(`${served.url}/api/tools/shortstats?code=${code}`, { headers: auth })).json();
    t.match(stats.result, { code, url: target, clicks: 2, short: made.result });
    t.type(stats.result.lastClickAt, 'string');

    const custom = await create({ url: 'https://example.org/', alias: 'my-link' });
    t.equal(custom.result, `${served.url}/s/my-link`);
    const taken = await create({ url: 'https://example.net/', alias: 'my-link' });
    t.match(taken, { status: 400, error: 'invalid_parameter', details: [{ param: 'alias' }] }, 'an alias is never re-pointed');

    await served.close();
    served = await serve(env, { endpoints });
    const after = await (await fetch(`${served.url}/api/tools/shortstats?code=${code}`, { headers: auth })).json();
    t.equal(after.result.clicks, 2, 'links and counts survive a restart');
  });
}

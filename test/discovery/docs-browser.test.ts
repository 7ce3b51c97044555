import fs from 'node:fs';
import t from 'tap';
import { chromium } from 'playwright-core';
import { serve } from '../support/serve.js';

/**
 * /docs in a real browser (Debian's chromium, which .ci/run installs): Swagger UI
 * renders the registry's operations under the page's CSP, without a console error
 * and without a single request leaving this server.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  t.test('Swagger UI in a browser', { skip: `no browser at ${CHROMIUM} (apt-get install chromium)` }, async () => {});
} else {
  const served = await serve({});
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  t.teardown(async () => {
    await browser.close();
    await served.close();
  });

  t.test('Swagger UI renders every category of the registry', async (t) => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('request', (req) => !req.url().startsWith(served.url) && !req.url().startsWith('data:') && elsewhere.push(req.url()));

    await page.goto(`${served.url}/docs`);
    await page.waitForSelector('.opblock-tag', { timeout: 20_000 });
    const tags = await page.$$eval('.opblock-tag', (nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    const categories = new Set(served.engine.registry.routes.map((r) => r.endpoint.category));
    for (const category of categories) t.ok(tags.includes(category), `tag ${category} rendered`);
    t.equal(await page.locator('.info .title').first().innerText().then((s) => s.includes('Manifold API')), true, 'title from the document');

    // open one operation: its parameters come from the manifest
    await page.click('.opblock-tag[data-tag="fun"]');
    await page.click('.opblock-summary-path[data-path="/api/fun/quote"]');
    await page.waitForSelector('.parameters tr[data-param-name="tag"]', { timeout: 10_000 });

    t.same(problems, [], 'no console errors (CSP violations would show here)');
    t.same(elsewhere, [], 'no request to another origin');
    await page.close();
  });
}

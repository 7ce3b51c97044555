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
    // Swagger UI takes seconds to digest the full catalog (~5 MB, 2,000+ operations), and
    // far longer when the test runs beside other suites on a small machine: wait generously
    page.setDefaultTimeout(150_000);
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('request', (req) => !req.url().startsWith(served.url) && !req.url().startsWith('data:') && elsewhere.push(req.url()));

    await page.goto(`${served.url}/docs`);
    await page.waitForSelector('.opblock-tag');
    const tags = await page.$$eval('.opblock-tag', (nodes) => nodes.map((n) => n.getAttribute('data-tag')));
    const categories = new Set(served.engine.registry.routes.map((r) => r.endpoint.category));
    for (const category of categories) t.ok(tags.includes(category), `tag ${category} rendered`);
    t.equal(await page.locator('.info .title').first().innerText().then((s) => s.includes('Manifold API')), true, 'title from the document');

    // open an operation of the smallest category (quick to render): its parameters come from the manifest
    const doc = await (await fetch(`${served.url}/openapi.json`)).json();
    const operations = Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values(item));
    const count = (category: string) => operations.filter((o) => o.tags[0] === category).length;
    const category = [...categories].sort((a, b) => count(a) - count(b))[0];
    const op = operations.find((o) => o.tags[0] === category && o.parameters.some((p: any) => p.name));
    if (t.ok(op, `an operation with parameters in ${category}`)) {
      const param = op.parameters.find((p: any) => p.name).name;
      const block = `#operations-${category}-${op.operationId}`;
      await page.click(`.opblock-tag[data-tag="${category}"]`);
      await page.click(`${block} .opblock-summary`);
      await page.waitForSelector(`${block} .parameters tr[data-param-name="${param}"]`);
      t.pass(`${op.operationId}: parameter ${param} rendered`);
    }

    t.same(problems, [], 'no console errors (CSP violations would show here)');
    t.same(elsewhere, [], 'no request to another origin');
    await page.close();
  });
}

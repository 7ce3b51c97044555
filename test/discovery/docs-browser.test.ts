import fs from 'node:fs';
import t from 'tap';
import { chromium } from 'playwright-core';
import { serve } from '../support/serve.js';

/**
 * /docs in a real browser (Debian's chromium, which .ci/run installs): Swagger UI
 * offers one document per category and renders them under the page's CSP, without a
 * console error and without a single request leaving this server.
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

  t.test('Swagger UI offers every category, renders the first, and switches to another', async (t) => {
    const page = await browser.newPage();
    // generous: the test may run beside other suites on a small machine
    page.setDefaultTimeout(150_000);
    const problems: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (msg) => msg.type() === 'error' && problems.push(msg.text()));
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('request', (req) => !req.url().startsWith(served.url) && !req.url().startsWith('data:') && elsewhere.push(req.url()));

    const config = await (await fetch(`${served.url}/docs/swagger-config.json`)).json();
    await page.goto(`${served.url}/docs`);
    await page.waitForSelector('.opblock-tag');
    const options = await page.$$eval('.topbar select option', (nodes) => nodes.map((n) => n.textContent));
    t.same(
      options,
      config.urls.map((u: { name: string }) => u.name),
      'one document per category in the selector, and everything',
    );
    const categories = [...new Set(served.engine.registry.routes.map((r) => r.endpoint.category))];
    const firstCategory = config.urls[0].url.match(/openapi\/(\w+)\.json/)[1];
    t.ok(categories.includes(firstCategory));
    t.same(
      await page.$$eval('.opblock-tag', (nodes) => nodes.map((n) => n.getAttribute('data-tag'))),
      [firstCategory],
      'the first document shows its category only',
    );
    t.ok((await page.locator('.info .title').first().innerText()).includes('Manifold API'), 'title from the document');

    // switch to the smallest category and open an operation: its parameters come from the manifest
    const count = (c: string) => served.engine.registry.routes.filter((r) => r.endpoint.category === c).length;
    const category = categories.sort((a, b) => count(a) - count(b))[0];
    const entry = config.urls.find((u: { url: string }) => u.url === `/openapi/${category}.json`);
    await page.selectOption('.topbar select', { label: entry.name });
    await page.waitForSelector(`.opblock-tag[data-tag="${category}"]`);
    const doc = await (await fetch(`${served.url}${entry.url}`)).json();
    const operations = Object.values<Record<string, any>>(doc.paths).flatMap((item) => Object.values(item));
    const op = operations.find((o) => o.parameters.some((p: any) => p.name));
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

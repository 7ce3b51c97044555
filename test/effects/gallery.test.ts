/**
 * The gallery in headless Chromium (Debian's chromium + playwright-core): every
 * template is listed, previews load, search filters. A screenshot is kept in
 * test-artifacts/gallery.png.
 */
import fs from 'node:fs';
import t from 'tap';
import sharp from 'sharp';
import { chromium } from 'playwright-core';
import { serve } from '../support/serve.js';

const CHROMIUM = '/usr/bin/chromium';
// the gallery shows the effect endpoints' templates, served as built-in routes of the real engine
const served = await serve({});
const base = served.url;
const total = served.engine.registry.routes.filter((r) => r.endpoint.adapter.kind === 'effect').length;
// the engine's close stops its render pool (engine/platform/scope.ts)
t.teardown(() => served.close());

t.test('previews are images; unknown templates 404', async (t) => {
  const res = await fetch(`${base}/gallery/preview/galaxy.webp`);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/webp');
  t.match(res.headers.get('cache-control'), /max-age=86400/);
  t.match(await sharp(Buffer.from(await res.arrayBuffer())).metadata(), { format: 'webp', width: 320 });
  t.equal((await fetch(`${base}/gallery/preview/no-such-effect.webp`)).status, 404);
});

t.test('the page loads in Chromium, shows every effect, and search filters', { skip: !fs.existsSync(CHROMIUM) && `no ${CHROMIUM}` }, async (t) => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${base}/gallery`);
  await page.waitForSelector('article.card');
  t.equal(await page.locator('article.card').count(), total, 'one card per template');
  t.equal(await page.textContent('#count'), `${total} of ${total} effects`);
  // The first row of previews actually decodes.
  await page.waitForFunction(() => [...document.querySelectorAll('img')].slice(0, 4).every((i) => i.complete && i.naturalWidth > 0), undefined, {
    timeout: 60_000,
  });
  t.ok(
    await page
      .locator('article.card code')
      .first()
      .textContent()
      .then((c) => /curl ".*\/api\/.+\?apikey=YOUR_KEY&/.test(c ?? '')),
    'cards carry an example request',
  );
  await page.fill('#q', 'neon');
  const shown = await page.locator('article.card:not([hidden])').count();
  t.ok(shown > 10 && shown < total, `search "neon" narrows the list (${shown})`);
  const texts = await page.locator('article.card:not([hidden])').evaluateAll((cards) => cards.map((c) => (c as HTMLElement).dataset.search ?? ''));
  t.ok(
    texts.every((s) => s.includes('neon')),
    'every shown card matches',
  );
  await page.fill('#q', 'zzzz-no-such-effect');
  t.equal(await page.textContent('#count'), `0 of ${total} effects`);
  await page.fill('#q', '');
  fs.mkdirSync('test-artifacts', { recursive: true });
  await page.screenshot({ path: 'test-artifacts/gallery.png' });
  t.same(errors, [], 'no script errors (the CSP allows what the page needs)');
});

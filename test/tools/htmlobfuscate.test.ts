import fs from 'node:fs';
import t from 'tap';
import { chromium, type Browser } from 'playwright-core';
import { obfuscateHtml } from '../../engine/kinds/handlers/tools/htmlobfuscate.js';

/**
 * The obfuscated page must behave like the original in a real browser: same text,
 * same title, same effects of its scripts (DOM writes, globals, event handlers).
 */
const CHROMIUM = '/usr/bin/chromium';
const ORIGINAL = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Original</title>
<style>.total { font-weight: bold }</style>
<script>window.config = { greeting: "Grüße" };</script>
</head>
<body>
<h1>Price list — ünïcödé ✓</h1>
<ul id="items"></ul>
<p class="total">Total: <span id="total"></span></p>
<button id="btn">Click</button><span id="clicks">0</span>
<script>
  const prices = { apple: 3, pear: 4 };
  const list = document.getElementById('items');
  let sum = 0;
  for (const [name, price] of Object.entries(prices)) {
    const li = document.createElement('li');
    li.textContent = name + ': ' + price;
    list.appendChild(li);
    sum += price;
  }
  document.getElementById('total').textContent = String(sum);
  document.title = window.config.greeting + ' ' + sum;
  let clicks = 0;
  document.getElementById('btn').addEventListener('click', () => {
    document.getElementById('clicks').textContent = String(++clicks);
  });
</script>
<script type="application/ld+json">{"@type": "Thing"}</script>
</body>
</html>`;

async function observe(browser: Browser, html: string) {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  await page.setContent(html, { waitUntil: 'load' });
  await page.click('#btn');
  await page.click('#btn');
  const seen = await page.evaluate(() => ({
    text: document.body.innerText,
    title: document.title,
    config: (window as unknown as { config: unknown }).config,
    weight: getComputedStyle(document.querySelector('.total')!).fontWeight,
    compatMode: document.compatMode,
    jsonLd: document.querySelector('script[type="application/ld+json"]')?.textContent,
  }));
  await page.close();
  return { ...seen, errors };
}

t.test(
  'obfuscated page renders and behaves like the original in Chromium',
  { skip: !fs.existsSync(CHROMIUM) && 'Debian chromium is not installed' },
  async (t) => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    t.teardown(() => browser.close());
    const obfuscated = obfuscateHtml(ORIGINAL);
    t.notMatch(obfuscated, /Price list|prices|getElementById|Grüße/, 'neither markup nor code is readable');
    const before = await observe(browser, ORIGINAL);
    const after = await observe(browser, obfuscated);
    t.same(before.errors, [], 'original runs cleanly');
    t.same(after.errors, [], 'obfuscated runs cleanly');
    t.match(before.text, /apple: 3\s+pear: 4[\s\S]*Total: 7[\s\S]*Click\s*2/, 'original effects observed');
    t.equal(after.text, before.text, 'same rendered text, including script output and clicks');
    t.equal(after.title, 'Grüße 7', 'same title');
    t.same(after.config, before.config, 'same globals');
    t.equal(after.weight, before.weight, 'styles apply');
    t.equal(after.compatMode, 'CSS1Compat', 'standards mode kept');
    t.equal(after.jsonLd, before.jsonLd, 'non-JS scripts untouched');
  },
);

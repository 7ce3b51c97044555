/**
 * `npm run console:screenshots`: one PNG of each page of the web console, for the
 * operating docs (docs/operating/console/). Starts the built server the way a host does
 * (scripts/start.mjs, in a throwaway data folder, on a free port, with a fresh
 * ADMIN_TOKEN), gives it a few keys, calls and jobs to show, then opens each page in
 * Chromium and waits for its content before taking the picture.
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './engine-sources.mjs';
import { buildConsole } from './build-console.js';
import { CONSOLE_PAGES, consolePage, haveChromium, launchChromium, openPage, signIn } from './console-browser.js';

const OUT = path.join(ROOT, 'docs', 'operating', 'console');

if (!haveChromium()) throw new Error('console:screenshots needs Chromium (apt-get install chromium, or set CHROMIUM_PATH)');
await buildConsole();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-console-shots-'));
const token = crypto.randomBytes(32).toString('hex');
// an empty env file, so no .env of this checkout reaches the pictures
const envFile = path.join(dir, 'empty.env');
fs.writeFileSync(envFile, '');
const server = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
  cwd: ROOT,
  env: {
    PATH: process.env.PATH,
    ENV_FILE: envFile,
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: '0',
    ADMIN_TOKEN: token,
    LOG_REQUESTS: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const base = await listening(server);
  await seed(base, token);
  const browser = await launchChromium();
  try {
    const { page, watch } = await consolePage(browser, base);
    await signIn(page, base, token);
    fs.mkdirSync(OUT, { recursive: true });
    for (const { id, link, ready } of CONSOLE_PAGES) {
      await openPage(page, link);
      await page.locator(ready).first().waitFor();
      await page.screenshot({ path: path.join(OUT, `${id}.png`), fullPage: true });
      console.log(`console:screenshots: ${path.relative(ROOT, path.join(OUT, `${id}.png`))}`);
    }
    if (watch.problems.length || watch.elsewhere.length) throw new Error(`the console had problems: ${[...watch.problems, ...watch.elsewhere].join('; ')}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The server's address, from its `listening` log line. */
function listening(child: ReturnType<typeof spawn>): Promise<string> {
  return new Promise((resolve, reject) => {
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk;
      const line = log.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (line) resolve(JSON.parse(line).url);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)));
  });
}

/** Keys with rules, a day of calls (answered and refused for bad parameters) and two jobs, so each page has something to show. */
async function seed(base: string, adminToken: string): Promise<void> {
  const admin = { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' };
  const create = async (body: Record<string, unknown>) => {
    const res = await fetch(`${base}/api/admin/keys`, { method: 'POST', headers: admin, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`creating a key: ${res.status} ${await res.text()}`);
    return (await res.json()).result as { key: string };
  };
  const inAMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const weather = await create({ tier: 'personal', label: 'weather-bot', note: 'Telegram @weather_bot, paid until March', rpm: 600, allow: ['fun', 'tools'] });
  const sticker = await create({ tier: 'personal', label: 'sticker-bot', daily: 20000, expires_at: inAMonth, ips: ['127.0.0.1', '10.0.0.0/8'] });
  const trial = await create({ tier: 'test', label: 'trial' });
  const call = (key: string, pathAndQuery: string) => fetch(base + pathAndQuery, { headers: { 'X-API-Key': key } }).then((res) => res.arrayBuffer());
  const calls: Promise<unknown>[] = [];
  for (let i = 0; i < 12; i++) calls.push(call(weather.key, '/api/fun/quote'));
  for (let i = 0; i < 5; i++) calls.push(call(weather.key, `/api/tools/sha256?text=${i}`));
  for (let i = 0; i < 8; i++) calls.push(call(sticker.key, `/api/tools/createqr?text=sticker-${i}`));
  calls.push(call(sticker.key, '/api/tools/color?color=not-a-colour'), call(trial.key, '/api/tools/cronnext?expression=nonsense'));
  calls.push(call(trial.key, '/api/tools/lorem'));
  // jobs: a download that cannot reach its site from here fails, which is worth showing too
  calls.push(call(sticker.key, `/api/download/tiktok?url=${encodeURIComponent('https://www.tiktok.com/@manifold/video/1')}&async=true`));
  await Promise.all(calls);
}

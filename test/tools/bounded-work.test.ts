import http from 'node:http';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { words } from '../support/words.js';

/**
 * The abuse cases against a real engine: a 100 KB word count, ten
 * catastrophic-backtracking patterns, a diff of two 24 KB texts and a QR code in a
 * 36-megapixel image. Their work runs in the code pool, so the event loop stays
 * responsive: the abuse adds under 50 ms to its delay (monitorEventLoopDelay, 99th
 * percentile, against the same measure taken idle just before: this shared 2-core
 * machine's own scheduling delay is the floor), nothing freezes it for a second, a
 * cheap request made meanwhile answers within a second, and the process lives on.
 */
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools'));
const served = await serve({}, { endpoints });
t.teardown(() => served.close());

const post = async (route: string, body: Record<string, unknown>) => {
  const res = await fetch(`${served.url}${route}`, {
    method: 'POST',
    headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { result?: any; error?: string } };
};
const get = async (route: string, params: Record<string, string>) => {
  const res = await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } });
  return { status: res.status, json: (await res.json()) as { result?: any; error?: string } };
};

// a 6000 x 6000 photo-sized PNG with a QR code in it, served locally
const QR_TEXT = 'bounded work: a 36 MP image';
const code = await QRCode.toBuffer(QR_TEXT, { width: 1500, margin: 4 });
const bigImage = await sharp({ create: { width: 6000, height: 6000, channels: 3, background: '#f4f4f0' } })
  .composite([{ input: code, left: 2100, top: 2300 }])
  .png({ compressionLevel: 9 })
  .toBuffer();
const images = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(req.url?.endsWith('?small') ? code : bigImage));
await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
t.teardown(() => new Promise((resolve) => images.close(resolve)));
const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}/big.png`;

const prose = 'The quick brown fox jumps over the lazy dog. Émoji 😀 and 日本語 count too!\n\n';
const REDOS = ['^(a+)+$', '(a|aa)+$', '^(a|a?)+$', '(.*a){25}$', '^(\\w+\\s?)*$', '(x+x+)+y', '^(([a-z])+.)+[A-Z]([a-z])+$', '(a*)*b', '^(a|a)*$', '^(\\d+)*$'];
const REDOS_TEXT = { '^(\\w+\\s?)*$': 'a'.repeat(40) + '!', '(x+x+)+y': 'x'.repeat(40), '^(\\d+)*$': '1'.repeat(40) + 'x' } as Record<string, string>;

/** Run `work` while recording the event loop's delay (1 ms resolution) and the latency of a cheap request made every 50 ms. */
async function withLoopDelay<T>(work: () => Promise<T>) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let running = true;
  const cheap: number[] = [];
  const cheapLoop = (async () => {
    while (running) {
      const started = performance.now();
      if ((await get('/api/tools/uuid', {})).status === 200) cheap.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const value = await work();
  running = false;
  await cheapLoop;
  histogram.disable();
  const ms = (ns: number) => ns / 1e6;
  const facts = { value, cheap, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  return {
    ...facts,
    describe: (m: { p50: number; p99: number; max: number; cheap: number[] }) =>
      `p50 ${m.p50.toFixed(0)} ms, p99 ${m.p99.toFixed(0)} ms, max ${m.max.toFixed(0)} ms; cheap request max ${Math.max(...m.cheap).toFixed(0)} ms over ${m.cheap.length}`,
  };
}

t.test('abusive inputs leave the event loop and other clients responsive', async (t) => {
  // workers started and modules loaded (in both workers): the test measures work, not the first start-up
  for (let i = 0; i < 2; i++) {
    const warm = await Promise.all([
      post('/api/tools/wordcount', { text: 'warm up' }),
      post('/api/tools/diff', { a: 'a b', b: 'a c' }),
      post('/api/tools/regex', { pattern: 'a', text: 'a' }),
      get('/api/tools/readqr', { url: `${imageUrl}?small` }),
      get('/api/tools/uuid', {}),
    ]);
    t.same(
      warm.map((w) => w.status),
      [200, 200, 200, 200, 200],
      'warmed up',
    );
  }

  const text100k = prose.repeat(Math.ceil(100_000 / prose.length)).slice(0, 100_000);
  // the same measure without abuse first: this shared machine's own scheduling delay is the floor
  const idle = await withLoopDelay(() => new Promise((resolve) => setTimeout(resolve, 3000)));
  const abused = await withLoopDelay(() =>
    Promise.all([
      post('/api/tools/wordcount', { text: text100k }),
      post('/api/tools/diff', { a: words(4000, 1), b: words(4000, 2) }),
      get('/api/tools/readqr', { url: imageUrl }),
      ...REDOS.map((pattern) => post('/api/tools/regex', { pattern, text: REDOS_TEXT[pattern] ?? 'a'.repeat(40) + '!' })),
    ]),
  );
  const [count, ...rest] = abused.value;

  t.equal(count.status, 200, '100 KB word count answered');
  t.equal(count.json.result?.bytes, Buffer.byteLength(text100k));
  const [diff, qr, ...redos] = rest;
  t.ok([200, 422].includes(diff!.status), `24 KB diff answered or refused as too complex (${diff!.status})`);
  t.equal(qr!.status, 200, `36 MP image read: ${JSON.stringify(qr!.json).slice(0, 200)}`);
  t.equal(qr!.json.result?.text, QR_TEXT);
  for (const [i, answer] of redos.entries()) t.ok([400, 422].includes(answer.status), `ReDoS ${REDOS[i]} stopped (${answer.status} ${answer.json.error})`);

  t.comment(`event loop delay idle: ${abused.describe(idle)}`);
  t.comment(`event loop delay under abuse: ${abused.describe(abused)}`);
  t.ok(abused.p99 - idle.p99 < 50, 'the abuse adds under 50 ms to the event loop delay (99th percentile)');
  t.ok(abused.max < 1000, 'no freeze of a second or more');
  t.ok(abused.cheap.length > 0 && Math.max(...abused.cheap) < 1000, 'a cheap request meanwhile answers within a second');
  t.equal((await get('/api/tools/uuid', {})).status, 200, 'the process is alive');
});

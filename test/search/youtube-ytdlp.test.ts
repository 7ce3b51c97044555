import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { isoSeconds } from '../../engine/features/media/youtube-search.js';
import { missingAny } from '../../engine/pipeline/endpoint-registry.js';
import { serve, TEST_KEY, type Served } from '../support/serve.js';

/**
 * /api/search/youtube and its alias yts without a YouTube key: yt-dlp's `ytsearchN:`
 * through a fake yt-dlp that logs its arguments and prints yt-dlp's real flat-playlist
 * output (./fixtures/ytdlp-ytsearch-lofi.json: two videos, a channel hit and a short).
 * With a key the Data API answers and yt-dlp is never run; with neither the endpoint is
 * unavailable and says what to do.
 */
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'search')).filter((e) => e.path === '/api/search/youtube');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-ytsearch-'));
const log = path.join(work, 'args.log');
const fake = path.join(work, 'yt-dlp');
const output = path.resolve(import.meta.dirname, 'fixtures/ytdlp-ytsearch-lofi.json');
fs.writeFileSync(fake, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a" >> '${log}'; done\necho '=== end of run' >> '${log}'\ncat '${output}'\n`, {
  mode: 0o755,
});
const failing = path.join(work, 'yt-dlp-failing');
fs.writeFileSync(
  failing,
  `#!/bin/sh\necho 'ERROR: [youtube:search] Unable to download API page: <urlopen error [Errno -3] Temporary failure in name resolution>' >&2\nexit 1\n`,
  {
    mode: 0o755,
  },
);

// the Data API stand-in, for the key case
const dataApi = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const item = {
    id: { kind: 'youtube#video', videoId: 'lTRiuFIWV54' },
    snippet: { title: 'From the Data API', channelTitle: 'Lofi Girl', channelId: 'UCSJ4gkVC6NrvII8umztf0Ow' },
  };
  const details = { kind: 'youtube#video', id: 'lTRiuFIWV54', contentDetails: { duration: 'PT3M5S' }, statistics: { viewCount: '77' } };
  const answer =
    url.pathname === '/videos'
      ? { kind: 'youtube#videoListResponse', items: [details] }
      : { kind: 'youtube#searchListResponse', items: url.searchParams.get('key') ? [item] : [] };
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
});
await new Promise<void>((resolve) => dataApi.listen(0, '127.0.0.1', resolve));
const dataApiUrl = `http://127.0.0.1:${(dataApi.address() as AddressInfo).port}`;

const engines: Served[] = [];
const start = async (env: Record<string, string>) => {
  const served = await serve(env, { endpoints });
  engines.push(served);
  return served;
};
t.teardown(async () => {
  for (const served of engines) await served.close();
  await new Promise((resolve) => dataApi.close(resolve));
  fs.rmSync(work, { recursive: true, force: true });
});

const search = async (served: Served, route: string, params: Record<string, string>) => {
  const res = await fetch(`${served.url}${route}?${new URLSearchParams({ ...params, apikey: TEST_KEY })}`);
  return { status: res.status, body: (await res.json()) as { result?: any[]; error?: string; message?: string } };
};
const runs = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('=== end of run\n').filter(Boolean) : []);

t.test('without a key: yt-dlp search, its entries as the fields clients read', async (t) => {
  const served = await start({ YTDLP_PATH: fake });
  const { status, body } = await search(served, '/api/search/yts', { query: 'lofi hip hop', limit: '4' });
  t.equal(status, 200, body.message ?? 'HTTP 200');
  const args = runs().at(-1)!.trim().split('\n');
  t.equal(args.at(-1), 'ytsearch4:lofi hip hop', 'ytsearchN: with the limit, as the last argument');
  t.equal(args.at(-2), '--', 'after --, so a query cannot be read as an option');
  t.ok(args.includes('--flat-playlist') && args.includes('--dump-single-json'), 'flat: no video page opened');
  t.ok(args.includes('--proxy'), 'through the egress proxy (the SSRF guard)');
  t.same(
    body.result!.map((v) => v.videoId),
    ['jfKfPfyJRdk', 'lTRiuFIWV54', 'Zk3q6Jx1a7M'],
    'videos in order; the channel hit left out',
  );
  const [live, video, short] = body.result!;
  t.match(video, {
    url: 'https://www.youtube.com/watch?v=lTRiuFIWV54',
    title: '1 A.M Study Session 📚 - [lofi hip hop/chill beats]',
    description: 'Lofi Girl presents a study session.',
    thumbnail: /hq720\.jpg\?sqp=-oaymwEcCNAFEJQDSFXyq4qpAw4IARUAAIhCGAFwAcABBg==/,
    author: { name: 'Lofi Girl', url: 'https://www.youtube.com/channel/UCSJ4gkVC6NrvII8umztf0Ow' },
    timestamp: '1:00:22',
    seconds: 3622,
    views: 95123456,
    live: false,
  });
  t.equal(video.image, video.thumbnail, 'image is the thumbnail, for clients that read image');
  t.match(live, { live: true, views: 31542, author: { name: 'Lofi Girl' }, timestamp: 'LIVE' });
  t.notOk('seconds' in live, 'a live stream has no length');
  t.match(short, { url: 'https://www.youtube.com/shorts/Zk3q6Jx1a7M', timestamp: '0:41', views: 1204 });
});

t.test('yt-dlp failing is an upstream error, not a crash', async (t) => {
  const served = await start({ YTDLP_PATH: failing });
  const { status, body } = await search(served, '/api/search/youtube', { q: 'lofi' });
  t.equal(status, 502);
  t.equal(body.error, 'extractor_broken');
});

t.test('with a key: the Data API answers and yt-dlp is not run', async (t) => {
  const before = runs().length;
  const served = await start({ YTDLP_PATH: fake, YOUTUBE_API_KEY: 'k', YOUTUBE_API_URL: dataApiUrl });
  const { status, body } = await search(served, '/api/search/youtube', { q: 'lofi' });
  t.equal(status, 200);
  t.match(body.result, [{ videoId: 'lTRiuFIWV54', title: 'From the Data API', author: { name: 'Lofi Girl' }, timestamp: '3:05', seconds: 185, views: 77 }]);
  t.equal(runs().length, before, 'no yt-dlp run');
});

t.test('neither: unavailable, saying what to do', async (t) => {
  const served = await start({ YTDLP_PATH: path.join(work, 'missing') });
  const { status, body } = await search(served, '/api/search/youtube', { q: 'lofi' });
  t.equal(status, 503);
  t.match(body.message, /set YOUTUBE_API_KEY or install yt-dlp/);
});

t.test('requires.anyOf: one complete alternative is enough', async (t) => {
  const alternatives = [
    { env: ['YOUTUBE_API_KEY'], bin: [] },
    { env: [], bin: ['yt-dlp'] },
  ];
  t.equal(missingAny(alternatives, { YOUTUBE_API_KEY: 'k', PATH: '/nonexistent' }), undefined, 'the key alone');
  t.equal(missingAny(alternatives, { YTDLP_PATH: fake }), undefined, 'the binary alone');
  t.equal(missingAny(alternatives, { PATH: '/nonexistent' }), 'set YOUTUBE_API_KEY or install yt-dlp (YOUTUBE_API_KEY not set; yt-dlp not installed)');
  t.equal(
    missingAny(
      [
        { env: ['A', 'B'], bin: [] },
        { env: ['C'], bin: ['yt-dlp'] },
      ],
      { A: '1', C: '1', PATH: '/nonexistent' },
    ),
    'set A and B or set C and install yt-dlp (B not set; yt-dlp not installed)',
    'an alternative counts only when complete',
  );
});

t.test("the Data API's ISO 8601 durations", async (t) => {
  t.equal(isoSeconds('PT1H0M22S'), 3622);
  t.equal(isoSeconds('PT4M13S'), 253);
  t.equal(isoSeconds('PT45S'), 45);
  t.equal(isoSeconds('P1DT2H'), 93600);
  t.equal(isoSeconds('P0D'), undefined, 'a live stream');
  t.equal(isoSeconds('soon'), undefined);
  t.equal(isoSeconds(undefined), undefined);
});

/**
 * End to end through the engine, offline: clips made with ffmpeg are served over
 * local HTTP and fetched by yt-dlp's generic extractor via /api/download/aio (and
 * the same pipeline every downloader uses). ffprobe checks what comes out.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { liveChildren } from '../../engine/features/media/child.js';
import { serve, TEST_KEY, type Served } from '../support/serve.js';
import { decodedHashes, ffprobe, makeClip, makeLongAudio, startMediaServer, until, alive } from './media-server.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.category === 'download');
const media = await startMediaServer({ throttle: { 'slow.webm': 20 } });
makeClip(media.dir);
makeLongAudio(media.dir);
fs.copyFileSync(path.join(media.dir, 'long.webm'), path.join(media.dir, 'slow.webm'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-media-out-'));
const engines: Served[] = [];
const start = async (env: Record<string, string> = {}) => {
  const served = await serve(env, { endpoints, upstreamSpecs: [] });
  engines.push(served);
  return served;
};
t.teardown(async () => {
  for (const served of engines) await served.close();
  await media.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const get = (served: Served, route: string, params: Record<string, string>, init: RequestInit = {}) =>
  fetch(`${served.url}${route}?${new URLSearchParams({ ...params, apikey: TEST_KEY })}`, init);

async function json(res: Response) {
  const body = await res.json();
  return body as { status: number; success: boolean; error?: string; message?: string; result: Record<string, any> };
}

async function save(url: string, name: string): Promise<string> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  const file = path.join(work, name);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

const served = await start();
const clip = media.url('clip.mp4');

t.test('link mode: MP3 at exactly 128 kbps CBR on the file route', async (t) => {
  const res = await get(served, '/api/download/aio', { url: clip, format: 'mp3' });
  const body = await json(res);
  t.equal(res.status, 200, body.message ?? 'ok');
  t.match(body.result, { title: 'clip', format: 'mp3', quality: '128kbps', filename: 'clip.mp3', source_url: clip });
  t.ok(body.result.download_url.startsWith(`${served.url}/files/`), 'download_url is on Manifold');
  t.ok(Math.abs(body.result.duration - 3) < 0.2, `duration from ffprobe (${body.result.duration})`);
  const file = await save(body.result.download_url, 'link.mp3');
  t.equal(fs.statSync(file).size, body.result.size, 'size is the file size');
  const probe = ffprobe(file);
  t.equal(probe.streams.length, 1, 'audio only');
  t.equal(probe.streams[0].codec_name, 'mp3');
  t.equal(probe.streams[0].bit_rate, '128000', 'stream bit rate 128 kbps');
  t.ok(Math.abs(Number(probe.format.duration) - 3) < 0.15, `plays for ~3 s (${probe.format.duration})`);
});

t.test('link mode: MP4 at a lower height is transcoded, playable, same duration', async (t) => {
  const body = await json(await get(served, '/api/download/aio', { url: clip, format: 'mp4', quality: '144p' }));
  t.match(body.result, { format: 'mp4', quality: '144p' });
  const probe = ffprobe(await save(body.result.download_url, 'link-144.mp4'));
  const video = probe.streams.find((s) => s.codec_type === 'video');
  t.equal(video?.codec_name, 'h264');
  t.equal(video?.height, 144);
  t.equal(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name, 'aac');
  t.ok(Math.abs(Number(probe.format.duration) - 3) < 0.15, `~3 s (${probe.format.duration})`);
});

t.test('a quality of the other kind is refused', async (t) => {
  const res = await get(served, '/api/download/aio', { url: clip, format: 'mp3', quality: '720p' });
  t.equal(res.status, 400);
  t.match(await json(res), { error: 'invalid_parameter' });
});

for (const [format, quality, streams] of [
  ['mp3', '192kbps', ['a']],
  ['mp4', '360p', ['v', 'a']],
] as const) {
  t.test(`stream mode ${format}: bytes decode the same as the link-mode file`, async (t) => {
    const res = await get(served, '/api/download/aio', { url: clip, format, quality, stream: 'true' });
    t.equal(res.status, 200);
    t.equal(res.headers.get('content-type'), format === 'mp3' ? 'audio/mpeg' : 'video/mp4');
    t.match(res.headers.get('content-disposition'), `attachment; filename="clip.${format}"`);
    t.equal(res.headers.get('content-length'), null, 'sent as produced (no length known up front)');
    const streamed = path.join(work, `streamed.${format}`);
    fs.writeFileSync(streamed, Buffer.from(await res.arrayBuffer()));
    const body = await json(await get(served, '/api/download/aio', { url: clip, format, quality }));
    const linked = await save(body.result.download_url, `linked.${format}`);
    for (const s of streams) {
      const a = decodedHashes(streamed, s);
      t.ok(a.length > 10, `${s}: decodes to frames`);
      t.same(a, decodedHashes(linked, s), `${s}: same decoded frames`);
    }
  });
}

t.test('stream mode from the cache: the stored file, with byte ranges (players seek)', async (t) => {
  const linked = await json(await get(served, '/api/download/aio', { url: clip, format: 'mp3' }));
  const whole = Buffer.from(await (await fetch(linked.result.download_url)).arrayBuffer());
  const stream = (headers: Record<string, string> = {}) => get(served, '/api/download/aio', { url: clip, format: 'mp3', stream: 'true' }, { headers });
  const full = await stream();
  t.equal(full.status, 200);
  t.equal(full.headers.get('accept-ranges'), 'bytes');
  t.equal(Number(full.headers.get('content-length')), whole.length, 'the length is known: the file is stored');
  t.match(full.headers.get('content-disposition'), 'attachment; filename="clip.mp3"');
  t.same(Buffer.from(await full.arrayBuffer()), whole, 'the cached file');
  const part = await stream({ Range: 'bytes=100-199' });
  t.equal(part.status, 206);
  t.equal(part.headers.get('content-range'), `bytes 100-199/${whole.length}`);
  t.same(Buffer.from(await part.arrayBuffer()), whole.subarray(100, 200));
  const tail = await stream({ Range: 'bytes=-50' });
  t.same(Buffer.from(await tail.arrayBuffer()), whole.subarray(whole.length - 50), 'a suffix range');
  const outside = await stream({ Range: `bytes=${whole.length}-` });
  t.equal(outside.status, 416);
  t.equal(outside.headers.get('content-range'), `bytes */${whole.length}`);
});

t.test('identical concurrent calls share one job; a repeat reuses the file', async (t) => {
  const log = path.join(work, 'yt-dlp.log');
  const wrapper = path.join(work, 'yt-dlp-counting');
  fs.writeFileSync(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec yt-dlp "$@"\n`, { mode: 0o755 });
  const counted = await start({ YTDLP_PATH: wrapper });
  const params = { url: clip, format: 'mp3', quality: '96kbps' };
  const [a, b] = await Promise.all([json(await get(counted, '/api/download/aio', params)), json(await get(counted, '/api/download/aio', params))]);
  const c = await json(await get(counted, '/api/download/aio', params));
  t.equal(a.result.download_url, b.result.download_url);
  t.same(c.result, a.result, 'the repeat answers exactly like the first call');
  const runs = fs.readFileSync(log, 'utf8').trim().split('\n');
  t.equal(runs.filter((l) => l.includes('--dump-single-json')).length, 1, 'resolved once');
  t.equal(runs.filter((l) => l.includes('--load-info-json')).length, 1, 'fetched once');
  t.ok(
    runs.every((l) => / --proxy http:\/\/[^ ]+@127\.0\.0\.1:\d+ /.test(` ${l} `)),
    'every yt-dlp run goes through the egress proxy',
  );
});

t.test('limits: too long and too large are client errors', async (t) => {
  const short = await start({ MEDIA_MAX_DURATION_S: '2' });
  const long = await json(await get(short, '/api/download/aio', { url: clip, format: 'mp3' }));
  t.match(long, { status: 400, error: 'invalid_parameter', message: /longer than the limit of 2 s/ });
  const small = await start({ MEDIA_MAX_BYTES: '10000' });
  const large = await json(await get(small, '/api/download/aio', { url: clip, format: 'mp3' }));
  t.match(large, { status: 400, error: 'invalid_parameter', message: /larger than the limit of 10000 bytes/ });
});

t.test('a disconnect mid-stream kills every process of the job', async (t) => {
  const controller = new AbortController();
  const res = await get(served, '/api/download/aio', { url: media.url('long.webm'), format: 'mp3', stream: 'true' }, { signal: controller.signal });
  t.equal(res.status, 200);
  const reader = res.body!.getReader();
  const first = await reader.read();
  t.ok(first.value && first.value.length > 0, 'first bytes arrived');
  const pids = liveChildren();
  t.ok(pids.length > 0, `ffmpeg is still running (${pids.length} processes)`);
  controller.abort();
  t.ok(await until(() => liveChildren().length === 0), 'no media child left');
  t.ok(await until(() => pids.every((pid) => !alive(pid))), 'and none of their pids exists');
});

t.test('a full queue answers 503 overloaded', async (t) => {
  const one = await start({ MEDIA_CONCURRENCY: '1', MEDIA_QUEUE: '0' });
  const controller = new AbortController();
  const busy = get(one, '/api/download/aio', { url: media.url('slow.webm'), format: 'mp3', stream: 'true' }, { signal: controller.signal });
  try {
    t.ok(await until(() => liveChildren().length > 0), 'the first job is running');
    const res = await get(one, '/api/download/aio', { url: clip, format: 'mp3', quality: '64kbps' });
    t.equal(res.status, 503);
    t.match(await json(res), { error: 'overloaded' });
    t.ok(res.headers.get('retry-after'), 'Retry-After set');
  } finally {
    controller.abort();
    await busy.catch(() => undefined);
  }
  t.ok(await until(() => liveChildren().length === 0), 'the first job was killed with its client');
});

t.test('an error after the first byte aborts the connection (no clean end, no envelope)', async (t) => {
  // the 20-minute source (~5 MB) passes the cap, its MP3 (~19 MB) crosses it mid-stream
  const capped = await start({ MEDIA_MAX_BYTES: String(8_000_000) });
  const res = await get(capped, '/api/download/aio', { url: media.url('long.webm'), format: 'mp3', stream: 'true' });
  t.equal(res.status, 200, 'the stream had started');
  let received = 0;
  const read = (async () => {
    for await (const chunk of res.body!) received += (chunk as Uint8Array).length;
  })();
  await t.rejects(read, 'the body ends with an error, not a clean end');
  t.ok(received > 0 && received <= 8_000_000, `bytes arrived first (${received})`);
  t.ok(await until(() => liveChildren().length === 0), 'the job is gone');
});

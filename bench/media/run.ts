/**
 * Media streaming bench: RSS of the engine process while it streams a big file
 * (target: growth under 30 MB for a 1 GB file) and time to first byte, against
 * running the same yt-dlp + ffmpeg steps directly.
 *
 *   node --import tsx bench/media/run.ts            # 1 GB source
 *   MEDIA_BENCH_MB=100 node --import tsx bench/media/run.ts
 *
 * The source is an H.264/AAC MP4 made once with ffmpeg (cached in the temp dir)
 * and served over local HTTP; the client is curl, so its buffers are not counted.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { serve, TEST_KEY } from '../../test/support/serve.js';
import { makeClip, startMediaServer } from '../../test/media/media-server.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';

const run = promisify(execFile);
const megabytes = Number(process.env.MEDIA_BENCH_MB ?? 1024);
const MB = 1024 * 1024;

/** An MP4 of about `mb` MB: 1080p test pattern at a bit rate that reaches the size in ~2 minutes. */
function source(dir: string, mb: number): string {
  const cached = path.join(os.tmpdir(), `manifold-bench-source-${mb}mb.mp4`);
  if (!fs.existsSync(cached)) {
    const seconds = 120;
    const kbps = Math.round((mb * 8 * 1024) / seconds);
    console.log(`making a ${mb} MB source (${seconds} s at ${kbps} kbps)…`);
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=1920x1080:rate=30:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      // nal-hrd=cbr pads with filler data: a test pattern would otherwise compress far below the size
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-b:v',
      `${kbps}k`,
      '-minrate',
      `${kbps}k`,
      '-maxrate',
      `${kbps}k`,
      '-bufsize',
      `${kbps}k`,
      '-x264-params',
      'nal-hrd=cbr',
      '-c:a',
      'aac',
      '-shortest',
      cached,
    ]);
  }
  const target = path.join(dir, 'big.mp4');
  fs.symlinkSync(cached, target);
  return target;
}

/** Spawn `command` and resolve with ms until its first stdout byte and until it ends. */
function timeToFirstByte(command: string, args: string[]): Promise<{ firstMs: number; totalMs: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let firstMs = -1;
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      if (firstMs < 0) firstMs = performance.now() - started;
      bytes += chunk.length;
    });
    child.on('error', reject);
    child.on('close', () => resolve({ firstMs, totalMs: performance.now() - started, bytes }));
  });
}

const media = await startMediaServer();
source(media.dir, megabytes);
makeClip(media.dir);
const url = media.url('big.mp4');
const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.path === '/api/download/aio');
const served = await serve({ MEDIA_MAX_BYTES: String(4 * 1024 * MB) }, { endpoints, upstreamSpecs: [] });

// one small job first, so one-time costs (lazy modules, the egress proxy, SQLite) are not counted as growth
const warmup = { url: media.url('clip.mp4'), format: 'mp4', stream: 'true', apikey: TEST_KEY };
await timeToFirstByte('curl', ['-sS', '-o', '/dev/null', `${served.url}/api/download/aio?${new URLSearchParams(warmup)}`]);

// 1. through Manifold: stream=true, 1080p MP4 (a copy: the source is already H.264/AAC)
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
let buffersPeak = 0;
const sampler = setInterval(() => {
  const usage = process.memoryUsage();
  rssPeak = Math.max(rssPeak, usage.rss);
  buffersPeak = Math.max(buffersPeak, usage.arrayBuffers);
}, 50);
const endpoint = `${served.url}/api/download/aio?${new URLSearchParams({ url, format: 'mp4', quality: '1080p', stream: 'true', apikey: TEST_KEY })}`;
const viaManifold = await timeToFirstByte('curl', ['-sS', '-N', endpoint]);
clearInterval(sampler);

// 2. the same steps by hand: resolve, spool the download, remux to stdout
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bench-direct-'));
const t0 = performance.now();
await run('yt-dlp', ['--ignore-config', '--dump-single-json', '--', url], { maxBuffer: 64 * MB });
await run('yt-dlp', ['--ignore-config', '-o', path.join(dir, 'in.mp4'), '--', url]);
const spooledMs = performance.now() - t0;
const direct = await timeToFirstByte('ffmpeg', [
  '-hide_banner',
  '-loglevel',
  'error',
  '-i',
  path.join(dir, 'in.mp4'),
  '-c',
  'copy',
  '-movflags',
  'frag_keyframe+empty_moov+default_base_moof',
  '-f',
  'mp4',
  'pipe:1',
]);

const row = (name: string, first: number, total: number, bytes: number) =>
  console.log(
    `${name.padEnd(28)} first byte ${(first / 1000).toFixed(2).padStart(7)} s   total ${(total / 1000).toFixed(2).padStart(7)} s   ${(bytes / MB).toFixed(0)} MB`,
  );
console.log(`\nsource ${(fs.statSync(path.join(media.dir, 'big.mp4')).size / MB).toFixed(0)} MB, ${os.cpus().length} cores`);
row('Manifold stream=true', viaManifold.firstMs, viaManifold.totalMs, viaManifold.bytes);
row('yt-dlp + ffmpeg directly', spooledMs + direct.firstMs, spooledMs + direct.totalMs, direct.bytes);
console.log(
  `engine RSS: ${(rssBefore / MB).toFixed(0)} MB before, ${(rssPeak / MB).toFixed(0)} MB peak, growth ${((rssPeak - rssBefore) / MB).toFixed(1)} MB (target < 30 MB); Buffers peak ${(buffersPeak / MB).toFixed(1)} MB`,
);

fs.rmSync(dir, { recursive: true, force: true });
await served.close();
await media.close();

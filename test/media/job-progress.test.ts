/**
 * Progress of media jobs: ffmpeg's own `-progress` report read by ffmpeg-progress.ts, and a
 * downloader run as a job (async=true) end to end, offline (a clip on a local server,
 * fetched by yt-dlp's generic extractor).
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { readFfmpegProgress } from '../../engine/features/media/ffmpeg-progress.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { makeClip, startMediaServer } from './media-server.js';

t.test("ffmpeg's -progress report becomes a fraction of the duration that only grows and ends at 1", async (t) => {
  const seconds = 120;
  const ffmpeg = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-progress',
      'pipe:3',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:a',
      'libmp3lame',
      '-f',
      'mp3',
      '-y',
      '/dev/null',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const fractions: number[] = [];
  readFfmpegProgress(ffmpeg.stdio[3] as Readable, seconds, (f) => fractions.push(f));
  await new Promise((resolve) => ffmpeg.once('close', resolve));
  t.ok(fractions.length >= 1, `reported (${fractions.join(', ')})`);
  t.same(
    fractions,
    [...fractions].sort((a, b) => a - b),
    'never goes back',
  );
  t.ok(
    fractions.every((f) => f > 0 && f <= 1),
    'within 0–1',
  );
  t.equal(fractions.at(-1), 1, 'ends at 1');
  t.ok(
    fractions.slice(0, -1).every((f) => f < 1),
    'below 1 until the end, reported once',
  );
});

t.test('without a known duration only the end is reported', async (t) => {
  const ffmpeg = spawn(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-loglevel', 'error', '-progress', 'pipe:3', '-f', 'lavfi', '-i', 'sine=duration=5', '-f', 'null', '-'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  const fractions: number[] = [];
  readFfmpegProgress(ffmpeg.stdio[3] as Readable, undefined, (f) => fractions.push(f));
  await new Promise((resolve) => ffmpeg.once('close', resolve));
  t.same(fractions, [1]);
});

t.test('a downloader run as a job reports its stages and keeps the synchronous result', async (t) => {
  // no throttle: yt-dlp's start alone keeps the job in its first stage for a while
  const media = await startMediaServer();
  t.teardown(() => media.close());
  makeClip(media.dir, 'slow.mp4');
  const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.path === '/api/download/aio');
  const served = await serve({}, { endpoints, upstreamSpecs: [] });
  t.teardown(() => served.close());
  await served.engine.start();

  const query = new URLSearchParams({ url: media.url('slow.mp4'), format: 'mp3' });
  const headers = { 'X-API-Key': TEST_KEY };
  const accepted = await (await fetch(`${served.url}/api/download/aio?${query}&async=true`, { headers })).json();
  t.equal(accepted.status, 202);
  const stages = new Set<string>();
  let job;
  for (let i = 0; i < 600; i++) {
    job = (await (await fetch(`${served.url}/api/jobs/${accepted.result.job_id}`, { headers })).json()).result;
    if (job.status === 'active' && job.stage) stages.add(job.stage);
    if (job.status === 'completed' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  t.equal(job.status, 'completed', JSON.stringify(job.error ?? ''));
  t.ok(
    [...stages].some((s) => /^(resolving|converting) \(mp3\)$/.test(s)),
    `the media stages were seen (${[...stages].join(', ')})`,
  );
  const sync = await (await fetch(`${served.url}/api/download/aio?${query}`, { headers })).json();
  t.same(job.result, sync.result, 'the job result is the synchronous one');
});

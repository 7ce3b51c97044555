/**
 * Downloads as jobs and as billed work, offline (clips made with ffmpeg, fetched by
 * yt-dlp's generic extractor from a local server, as aio.test.ts does):
 * - a cancelled download job kills its yt-dlp and ffmpeg and frees the one media slot,
 *   although link-mode work outlives a caller that merely leaves (it is shared and cached);
 * - media seconds: the media's duration per key, endpoint and day in GET /api/admin/usage,
 *   its CSV and manifold_media_seconds_total, for a synchronous download, a stream and a job;
 *   a cached answer processes nothing.
 */
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { liveChildren } from '../../engine/features/media/child.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';
import { jobWhenDone } from '../jobs/site.js';
import { makeClip, makeLongAudio, startMediaServer, until, alive } from './media-server.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.path === '/api/download/aio');
// about a second per 64 KiB read: the job is still downloading when it is cancelled, however loaded the machine
const media = await startMediaServer({ throttle: { 'slow.webm': 1000 } });
makeClip(media.dir);
makeClip(media.dir, 'other.mp4', 2);
makeLongAudio(media.dir, 'slow.webm', 300);
t.teardown(() => media.close());
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

const call = async (base: string, path: string, init: RequestInit = {}) => {
  const res = await fetch(base + path, { ...init, headers: { 'X-API-Key': TEST_KEY, ...init.headers } });
  return { status: res.status, body: await res.json() };
};
const aio = (params: Record<string, string>) => `/api/download/aio?${new URLSearchParams({ format: 'mp3', ...params })}`;

t.test('a cancelled download job kills its processes and frees the media slot', async (t) => {
  const served = await serve({ MEDIA_CONCURRENCY: '1', TEST_KEY_MAX_JOBS: '5' }, { endpoints, upstreamSpecs: [] });
  t.teardown(() => served.close());
  await served.engine.start();
  const accepted = await call(served.url, aio({ url: media.url('slow.webm'), async: 'true' }));
  t.equal(accepted.status, 202);
  const id = accepted.body.result.job_id;
  t.ok(await until(() => liveChildren().length > 0, 300), 'yt-dlp or ffmpeg is running the job');
  const pids = liveChildren();

  const cancelled = await call(served.url, `/api/jobs/${id}/cancel`, { method: 'POST' });
  t.match(cancelled, { status: 200, body: { result: { status: 'cancelled' } } });
  t.ok(await until(() => pids.every((pid) => !alive(pid))), 'every process of the job is gone');

  // the only media slot is free: the next download runs
  const next = await call(served.url, aio({ url: media.url('clip.mp4'), async: 'true' }));
  t.match(await jobWhenDone(served.url, next.body.result.job_id, TEST_KEY, 60_000), { status: 'completed', result: { download_url: String } });
  t.match((await call(served.url, `/api/jobs/${id}`)).body.result, { status: 'cancelled' });
});

t.test('media seconds per key, endpoint and day: API, CSV and metrics', async (t) => {
  const served = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, TEST_KEY_MAX_JOBS: '5' }, { endpoints, upstreamSpecs: [] });
  t.teardown(() => served.close());
  await served.engine.start();
  const usage = async () => (await call(served.url, '/api/admin/usage?endpoint=/api/download/aio', { headers: ADMIN })).body.result;

  const linked = await call(served.url, aio({ url: media.url('clip.mp4') }));
  t.equal(linked.status, 200, linked.body.message);
  const once = await usage();
  t.ok(Math.abs(once.totals.media_seconds - 3) < 0.2, `a 3 s clip counts its seconds (${once.totals.media_seconds})`);

  const cached = await call(served.url, aio({ url: media.url('clip.mp4') }));
  t.equal(cached.body.result.download_url, linked.body.result.download_url, 'the same file, from the cache');
  t.equal((await usage()).totals.media_seconds, once.totals.media_seconds, 'a cached answer processed nothing');

  const streamed = await fetch(served.url + aio({ url: media.url('other.mp4'), stream: 'true', quality: '64kbps' }), { headers: { 'X-API-Key': TEST_KEY } });
  t.equal(streamed.status, 200);
  await streamed.arrayBuffer();
  const job = await call(served.url, aio({ url: media.url('other.mp4'), async: 'true' }));
  t.match(await jobWhenDone(served.url, job.body.result.job_id, TEST_KEY, 60_000), { status: 'completed' });

  const report = await usage();
  t.ok(Math.abs(report.totals.media_seconds - 7) < 0.5, `3 s linked + 2 s streamed + 2 s by a job (${report.totals.media_seconds})`);
  t.match(report.by_key, [{ key_id: 'test', media_seconds: report.totals.media_seconds }]);
  t.match(report.rows, [{ endpoint: 'GET /api/download/aio', media_seconds: report.totals.media_seconds }]);

  const csv = await (await fetch(`${served.url}/api/admin/usage?format=csv&endpoint=/api/download/aio`, { headers: ADMIN })).text();
  const [header, row] = csv.split('\r\n');
  const columns = header.split(',');
  t.ok(columns.includes('media_seconds'), header);
  t.equal(Number(row.split(',')[columns.indexOf('media_seconds')]), report.totals.media_seconds, 'the CSV has the same figure');

  const metrics = await (await fetch(`${served.url}/metrics`)).text();
  const sample = /manifold_media_seconds_total\{category="download",endpoint="\/api\/download\/aio",tier="test"\} ([\d.]+)/.exec(metrics);
  t.ok(sample, 'one series per endpoint template and tier, no key');
  t.ok(Math.abs(Number(sample?.[1]) - report.totals.media_seconds) < 0.01, `the metric has the same figure (${sample?.[1]})`);
});

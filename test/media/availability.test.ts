import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.category === 'download');
const ytmp3 = (base: string) =>
  fetch(`${base}/api/download/ytmp3?${new URLSearchParams({ url: 'https://youtu.be/dQw4w9WgXcQ', apikey: TEST_KEY })}`).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { error?: string; message?: string },
  }));

t.test('without yt-dlp on PATH the downloaders are unavailable, and say why', async (t) => {
  const served = await serve({ PATH: '/nonexistent' }, { endpoints, upstreamSpecs: [] });
  t.teardown(() => served.close());
  const answer = await ytmp3(served.url);
  t.equal(answer.status, 503);
  t.match(answer.body, { error: 'unavailable', message: /yt-dlp, ffmpeg, ffprobe not installed/ });
});

t.test('a YTDLP_PATH that is not an executable makes them unavailable too', async (t) => {
  const served = await serve({ YTDLP_PATH: '/nonexistent/yt-dlp' }, { endpoints, upstreamSpecs: [] });
  t.teardown(() => served.close());
  const answer = await ytmp3(served.url);
  t.equal(answer.status, 503);
  t.match(answer.body, { error: 'unavailable', message: /YTDLP_PATH \(\/nonexistent\/yt-dlp\) is not an executable/ });
});

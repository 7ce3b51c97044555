import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { validateParams } from '../../engine/catalog/params.js';
import { outputSpec } from '../../engine/kinds/adapters/media.js';
import { parseQuality } from '../../engine/features/media/quality.js';

const downloaders = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.adapter.kind === 'media' && e.params.quality);

t.test('every spelling clients use reads as the same target', async (t) => {
  for (const raw of ['128', '128k', '128kbps', '128K', '128 kbps']) t.same(parseQuality(raw), { kind: 'audio', kbps: 128 }, raw);
  for (const raw of ['720', '720p', '720P']) t.same(parseQuality(raw), { kind: 'video', height: 720 }, raw);
  for (const raw of ['128p', '720k', '720kbps', '100', '4k', '', 'best']) t.equal(parseQuality(raw), undefined, `${JSON.stringify(raw)} is no quality`);
});

t.test('the job spec carries the canonical label, so every spelling is one cached job', async (t) => {
  for (const raw of ['128', '128k', '128kbps'])
    t.same(outputSpec('mp3', raw), { format: 'mp3', quality: '128kbps', target: { kind: 'audio', kbps: 128 } }, raw);
  for (const raw of ['720', '720p']) t.same(outputSpec('mp4', raw), { format: 'mp4', quality: '720p', target: { kind: 'video', height: 720 } }, raw);
  t.throws(() => outputSpec('mp3', '720'), { status: 400, code: 'invalid_parameter' }, 'a height for an MP3 is refused');
  t.throws(() => outputSpec('mp4', '128k'), { status: 400, code: 'invalid_parameter' }, 'a bit rate for an MP4 is refused');
});

t.test('every downloader with a quality param takes the liberal spellings of the values it offers', async (t) => {
  t.ok(downloaders.length >= 20, `${downloaders.length} downloaders with a quality param`);
  const url = 'https://example.com/x';
  const accepts = (e: (typeof downloaders)[number], quality: string) => {
    try {
      validateParams(e, { url, quality });
      return true;
    } catch {
      return false;
    }
  };
  for (const e of downloaders) {
    for (const [canonical, variants] of [
      ['128kbps', ['128', '128k']],
      ['720p', ['720']],
    ] as const) {
      if (!accepts(e, canonical)) continue;
      for (const v of variants) t.ok(accepts(e, v), `${e.path}: quality=${v} as ${canonical}`);
    }
    t.notOk(accepts(e, 'best'), `${e.path}: an unknown quality is refused`);
  }
  const ytmp3 = downloaders.find((e) => e.path === '/api/download/ytmp3')!;
  const params = validateParams(ytmp3, { url: 'https://youtu.be/dQw4w9WgXcQ', quality: '128' });
  t.same(outputSpec('mp3', params.quality as string).quality, '128kbps', 'bare quality=128 on ytmp3 is a 128 kbps MP3');
});

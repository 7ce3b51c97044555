import t from 'tap';
import { metaOf, safeFilename, shapeResult } from '../../engine/features/media/result-shapes.js';
import { file, recorded } from './recorded.js';

t.test('YouTube metadata: the standard fields clients read', async (t) => {
  const meta = metaOf(recorded('youtube-video'));
  t.match(meta, {
    id: 'dQw4w9WgXcQ',
    title: 'Rick Astley - Never Gonna Give You Up (Official Music Video)',
    duration: 212,
    thumbnail: 'https://i.ytimg.com/vi_webp/dQw4w9WgXcQ/maxresdefault.webp',
    uploader: 'Rick Astley',
    source_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
  });
  const result = shapeResult('standard', [file(meta, 'mp3', '128kbps')]);
  t.match(result, { title: meta.title, duration: 212, thumbnail: meta.thumbnail, format: 'mp3', quality: '128kbps', size: 1234 });
  t.equal(result.download_url, 'https://manifold.test/files/mp3-hash.mp3');
  t.equal(result.filename, 'Rick Astley - Never Gonna Give You Up (Official Music Video).mp3');
});

t.test('ytdl shape: video_url and audio_url (and the audi_quality spelling clients read)', async (t) => {
  const meta = metaOf(recorded('youtube-video'));
  const result = shapeResult('ytdl', [file(meta, 'mp4', '720p'), file(meta, 'mp3', '128kbps')]);
  t.match(result, {
    video_url: 'https://manifold.test/files/mp4-hash.mp4',
    audio_url: 'https://manifold.test/files/mp3-hash.mp3',
    video_quality: '720p',
    audio_quality: '128kbps',
    audi_quality: '128kbps',
    download_url: 'https://manifold.test/files/mp4-hash.mp4',
  });
});

t.test('TikTok shape: author, stats, video and music', async (t) => {
  const meta = metaOf(recorded('tiktok-video'));
  const result = shapeResult('tiktok', [file(meta, 'mp4', '720p'), file(meta, 'mp3', '128kbps')]);
  t.match(result, {
    title: '#foryou #fyp',
    duration: 11,
    author: { name: 'scout2015', username: '6718335390845095173' },
    stats: { playCount: 4300000, likeCount: 612000, commentCount: 8400, shareCount: 12000 },
    video: 'https://manifold.test/files/mp4-hash.mp4',
    video_nowm: 'https://manifold.test/files/mp4-hash.mp4',
    music: 'https://manifold.test/files/mp3-hash.mp3',
    cover: 'https://p16-sign-va.tiktokcdn.com/obj/tos-maliva-p-0068/cover.jpeg',
  });
});

t.test('platform shapes carry the names their clients read', async (t) => {
  const meta = metaOf(recorded('tiktok-video'));
  const mp4 = [file(meta, 'mp4', '720p')];
  t.match(shapeResult('instagram', mp4), { type: 'video', url: mp4[0].download_url, caption: '#foryou #fyp' });
  t.match(shapeResult('facebook', mp4), { hd_video: mp4[0].download_url, sd_video: mp4[0].download_url, video: mp4[0].download_url });
  t.match(shapeResult('twitter', mp4), { HD: mp4[0].download_url, SD: mp4[0].download_url, url: mp4[0].download_url });
  t.same(shapeResult('pinterest', mp4).media, [{ type: '720p', format: 'MP4', download_url: mp4[0].download_url }]);
  t.same(shapeResult('dailymotion', mp4).formats, [{ quality: '720p', format: 'mp4', url: mp4[0].download_url }]);
});

t.test('generic items: missing fields are null, the title falls back to the id', async (t) => {
  const meta = metaOf(recorded('generic-direct-mp4'));
  t.same(meta.title, 'clip');
  const result = shapeResult('standard', [file(meta, 'mp4', '720p')]);
  t.equal(result.thumbnail, null);
  t.equal(result.uploader, null);
  t.equal(metaOf({ id: 'abc' }).title, 'abc');
  t.equal(metaOf(recorded('generic-opengraph-page')).thumbnail, 'http://127.0.0.1:8000/thumb.jpg', 'og:image');
});

t.test('safeFilename: no path, quote or control characters survive', async (t) => {
  t.equal(safeFilename('../../etc/passwd', 'mp3'), 'etc passwd.mp3');
  t.equal(safeFilename('a"b\\c\r\nd', 'mp4'), 'a b c d.mp4');
  t.equal(safeFilename('   ', 'mp3'), 'media.mp3');
  t.equal(safeFilename('x'.repeat(500), 'mp3').length, 124);
  t.equal(safeFilename('Beyoncé – Halo', 'mp3'), 'Beyoncé – Halo.mp3', 'non-ASCII is kept (the engine adds filename*)');
});

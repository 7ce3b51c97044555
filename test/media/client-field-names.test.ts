import t from 'tap';
import { metaOf, shapeResult } from '../../engine/features/media/result-shapes.js';
import { mimeTypeOf } from '../../engine/features/media/file-types.js';
import { dispositionName, fileId, readWarningPage } from '../../engine/kinds/handlers/download/gdrivedl.js';
import { folderCode, websiteToken } from '../../engine/kinds/handlers/download/gofile.js';
import { pasteKey } from '../../engine/kinds/handlers/download/pastebin.js';
import { file, recorded } from './recorded.js';

/**
 * The field names the genre's clients read (test/parity/corpus), over recorded yt-dlp
 * output: every name carries a value of the same item, or null where the source has none.
 */

t.test('YouTube: id, author, upload date, views and each file under the names clients read', async (t) => {
  const meta = metaOf(recorded('youtube-video'));
  const audio = shapeResult('youtube', [file(meta, 'mp3', '128kbps')]);
  t.match(audio, {
    id: 'dQw4w9WgXcQ',
    author: 'Rick Astley',
    thumb: meta.thumbnail,
    url: 'https://manifold.test/files/mp3-hash.mp3',
    downloadUrl: 'https://manifold.test/files/mp3-hash.mp3',
    url_audio: 'https://manifold.test/files/mp3-hash.mp3',
    url_video: null,
  });
  t.match(audio.uploadDate, /^\d{4}-\d{2}-\d{2}$|^null$/);
  const both = shapeResult('ytdl', [file(meta, 'mp4', '720p'), file(meta, 'mp3', '128kbps')]);
  t.same(both.media, [
    { quality: '720p', format: '720p .mp4', download_url: 'https://manifold.test/files/mp4-hash.mp4' },
    { quality: '128kbps', format: '128kbps .mp3', download_url: 'https://manifold.test/files/mp3-hash.mp3' },
  ]);
  t.match(both, { url_video: 'https://manifold.test/files/mp4-hash.mp4', url_audio: 'https://manifold.test/files/mp3-hash.mp3', id: 'dQw4w9WgXcQ' });
});

t.test('TikTok, Twitter, Snack Video and the all-in-one: the platform names', async (t) => {
  const meta = metaOf(recorded('youtube-video'));
  const tiktok = shapeResult('tiktok', [file(meta, 'mp4', '720p'), file(meta, 'mp3', '128kbps')]);
  t.match(tiktok, { videoUrl: 'https://manifold.test/files/mp4-hash.mp4', audioUrl: 'https://manifold.test/files/mp3-hash.mp3' });
  const twitter = shapeResult('twitter', [file(meta, 'mp4', '720p')]);
  t.same(twitter.videoUrls, [{ quality: '720p', url: 'https://manifold.test/files/mp4-hash.mp4' }]);
  t.match(twitter, { video_hd: twitter.download_url, video_sd: twitter.download_url, thumb: meta.thumbnail, desc: twitter.description });
  const snack = shapeResult('snack', [file({ ...meta, like_count: 12, comment_count: undefined }, 'mp4', '720p')]);
  t.match(snack, { media: snack.download_url, author: 'Rick Astley', like: 12, comment: null });
  t.match(shapeResult('aio', [file(meta, 'mp3', '64kbps')]), { type: 'audio', url: 'https://manifold.test/files/mp3-hash.mp3' });
});

t.test('MIME types of hosted files by extension', async (t) => {
  t.equal(mimeTypeOf('a.zip'), 'application/zip');
  t.equal(mimeTypeOf('b.RAR'), 'application/vnd.rar');
  t.equal(mimeTypeOf('notes.txt'), 'text/plain');
  t.equal(mimeTypeOf('blob.unknownext'), 'application/octet-stream');
  t.equal(mimeTypeOf(null), null);
});

t.test('Google Drive: ids, Content-Disposition names and the warning page', async (t) => {
  t.equal(fileId('https://drive.google.com/file/d/1Pm4TqH0cW2sR8vLbN5yXk7JdE3fGaZuQ/view?usp=sharing'), '1Pm4TqH0cW2sR8vLbN5yXk7JdE3fGaZuQ');
  t.equal(fileId('https://drive.google.com/uc?export=download&id=1RemovedFileIdNoLongerThere000'), '1RemovedFileIdNoLongerThere000');
  t.equal(dispositionName(`attachment; filename="r.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`), 'résumé.pdf');
  t.equal(dispositionName('attachment; filename="plain name.zip"'), 'plain name.zip');
  t.equal(dispositionName(undefined), null);
  const page =
    '<span class="uc-name-size"><a href="/open?id=X">big &amp; old.iso</a> (2.1G)</span><form id="download-form" action="/download" method="get">' +
    '<input type="submit" value="Download anyway"/><input type="hidden" name="id" value="X"><input type="hidden" name="confirm" value="t"></form>';
  t.same(readWarningPage(page, 'https://drive.usercontent.google.com'), {
    name: 'big & old.iso',
    size: '2.1G',
    link: 'https://drive.usercontent.google.com/download?id=X&confirm=t',
  });
  t.equal(readWarningPage('<p class="uc-error-subcaption">Sign in</p>', 'https://drive.usercontent.google.com'), undefined);
});

t.test('GoFile and Pastebin: only the code or key leaves the URL', async (t) => {
  t.equal(folderCode('https://gofile.io/d/Xk9PqR?x=1'), 'Xk9PqR');
  t.equal(websiteToken('tok', 'salt', 0), websiteToken('tok', 'salt', 14399_000), 'one token per 4-hour period');
  t.not(websiteToken('tok', 'salt', 0), websiteToken('tok', 'salt', 14400_000));
  t.match(websiteToken('tok', 'salt'), /^[0-9a-f]{64}$/);
  t.equal(pasteKey('https://pastebin.com/raw/Hk1pZ7Yw'), 'Hk1pZ7Yw');
  t.equal(pasteKey('https://pastebin.com/Hk1pZ7Yw/'), 'Hk1pZ7Yw');
});

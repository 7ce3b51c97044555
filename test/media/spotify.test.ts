import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { parseEmbedPage, trackId, youtubeQuery } from '../../engine/features/media/spotify.js';

const page = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'recorded', 'spotify-embed-track.html'), 'utf8');

t.test('the track id comes from track URLs only', async (t) => {
  t.equal(trackId('https://open.spotify.com/track/4PTG3Z6ehGkBFwjybzWkR8?si=abc'), '4PTG3Z6ehGkBFwjybzWkR8');
  t.equal(trackId('https://open.spotify.com/intl-de/track/4PTG3Z6ehGkBFwjybzWkR8'), '4PTG3Z6ehGkBFwjybzWkR8');
  t.equal(trackId('https://open.spotify.com/album/1DFixLWuPkv3KT3TnV35m3'), undefined);
});

t.test('the embed page gives title, artists, seconds and the largest cover', async (t) => {
  const track = parseEmbedPage(page, '4PTG3Z6ehGkBFwjybzWkR8');
  t.same(track, {
    id: '4PTG3Z6ehGkBFwjybzWkR8',
    title: 'Never Gonna Give You Up',
    artists: ['Rick Astley'],
    duration: 214,
    thumbnail: 'https://i.scdn.co/image/ab67616d0000b273a1c0d5e3f0a8b1c2d3e4f5a6',
  });
  t.equal(youtubeQuery(track), 'Rick Astley - Never Gonna Give You Up');
});

t.test('the track object is found wherever the page moves it', async (t) => {
  const moved = `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({
    props: { other: [{ x: 1 }, { track: { title: 'Song', artists: [{ name: 'A' }, { name: 'B' }], duration: { totalMilliseconds: 61000 } } }] },
  })}</script>`;
  t.match(parseEmbedPage(moved, 'x'), { title: 'Song', artists: ['A', 'B'], duration: 61 });
});

t.test('a page without track data is an upstream error', async (t) => {
  t.throws(() => parseEmbedPage('<html>login wall</html>', 'x'), { status: 502, code: 'upstream_error' });
  t.throws(() => parseEmbedPage('<script id="__NEXT_DATA__" type="application/json">{not json</script>', 'x'), { status: 502, code: 'upstream_error' });
});

/**
 * URL gates of every downloader manifest: the param example and the URLs of success
 * examples are accepted, unsupported_url examples refused, and no platform accepts
 * another platform's example URL.
 */
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { urlMatcher } from '../../engine/features/media/url-match.js';

const gated = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.adapter.kind === 'media' && e.adapter.config.urls);
const matcherOf = (e: (typeof gated)[number]) => urlMatcher(e.adapter.config.urls as string[], e.adapter.config.site as string);
const siteOf = (e: (typeof gated)[number]) => e.adapter.config.site as string;

t.ok(gated.length >= 45, `${gated.length} downloaders with URL patterns`);

for (const endpoint of gated) {
  t.test(endpoint.path, async (t) => {
    const matcher = matcherOf(endpoint);
    const example = endpoint.params.url.example as string;
    t.ok(matcher.matches(example), `accepts its example ${example}`);
    for (const ex of endpoint.examples) {
      const url = String(ex.params.url);
      if (ex.expect.error === 'unsupported_url') t.notOk(matcher.matches(url), `refuses ${url}`);
      else t.ok(matcher.matches(url), `accepts ${url}`);
    }
    for (const other of gated) {
      if (siteOf(other) === siteOf(endpoint)) continue;
      const url = other.params.url.example as string;
      if (matcher.matches(url)) t.fail(`${endpoint.path} also accepts ${siteOf(other)}'s ${url}`);
    }
    t.throws(() => matcher.check('https://example.com/video.mp4'), { code: 'unsupported_url', status: 400 });
  });
}

t.test('YouTube forms', async (t) => {
  const youtube = matcherOf(gated.find((e) => e.path === '/api/download/ytmp3')!);
  for (const url of [
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
    'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://music.youtube.com/watch?v=dQw4w9WgXcQ&list=RD',
    'https://youtu.be/dQw4w9WgXcQ?si=abc',
    'https://www.youtube.com/shorts/dQw4w9WgXcQ',
    'https://www.youtube.com/live/dQw4w9WgXcQ',
    'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
  ])
    t.ok(youtube.matches(url), url);
  for (const url of [
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'https://evil.example/?u=https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://notyoutube.com/watch?v=dQw4w9WgXcQ',
    'https://www.youtube.com/channel/UCuAXFkgsw1L7xaCfnd5JJOw',
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    'ftp://youtu.be/dQw4w9WgXcQ',
  ])
    t.notOk(youtube.matches(url), `refuses ${url}`);
});

t.test('no patterns: any http(s) URL, nothing else', async (t) => {
  const any = urlMatcher(undefined, 'http(s)');
  t.ok(any.matches('http://example.com/a.mp4'));
  t.ok(any.matches('HTTPS://example.com/'));
  t.notOk(any.matches('file:///etc/passwd'));
  t.throws(() => any.check('ftp://x/y'), { code: 'unsupported_url' });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadConfig } from '../../engine/platform/config.js';
import { engineFeatures } from '../../engine/app/features.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { CookiePools } from '../../engine/features/media/cookie-pool.js';
import { serve, TEST_KEY, type Served } from '../support/serve.js';
import { makeClip, startMediaServer } from './media-server.js';
import { EngineScope } from '../../engine/platform/scope.js';

/**
 * YTDLP_COOKIES_DIR: a pool of cookies files per site, taken in turn; one the site answers
 * with a login or bot check is set aside (and shown on /metrics) and the same download is
 * resolved again with the next, so the client gets its file; it comes back when its file changes.
 */
const NETSCAPE = '# Netscape HTTP Cookie File\n';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-cookies-'));
t.teardown(() => fs.rmSync(work, { recursive: true, force: true }));

function pools(layout: Record<string, string[]>, links: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(work, 'pool-'));
  for (const [site, files] of Object.entries(layout)) {
    fs.mkdirSync(path.join(dir, site));
    for (const file of files) fs.writeFileSync(path.join(dir, site, file), NETSCAPE);
  }
  for (const [link, target] of Object.entries(links)) fs.symlinkSync(target, path.join(dir, link));
  return dir;
}

t.test('a pool per site, taken in turn, by host or parent domain, symlinks sharing one', async (t) => {
  const dir = pools({ 'youtube.com': ['a.txt', 'b.txt', 'notes.md'], 'instagram.com': ['main.txt'] }, { 'youtu.be': 'youtube.com' });
  const cookies = new CookiePools(dir);
  const name = (url: string) => {
    const picked = cookies.pick(url);
    return picked && path.basename(picked.file);
  };
  t.same(
    ['https://www.youtube.com/watch?v=x', 'https://m.youtube.com/shorts/y', 'https://youtube.com/watch?v=z'].map(name),
    ['a.txt', 'b.txt', 'a.txt'],
    'in turn, for the domain and its subdomains; only .txt files',
  );
  t.equal(name('https://youtu.be/x'), 'a.txt', 'a symlinked site has the same files');
  t.equal(name('https://www.instagram.com/p/1'), 'main.txt');
  t.equal(name('https://example.com/v'), undefined, 'no pool: the default cookies file');
  t.equal(name('https://notyoutube.com/v'), undefined, 'a parent domain, not a suffix');
  t.equal(name('not a url'), undefined);

  const b = cookies.pick('https://youtube.com/v')!;
  t.equal(path.basename(b.file), 'b.txt');
  const first = cookies.pick('https://youtube.com/v')!;
  cookies.setAside(first, 'login_required');
  t.same([name('https://youtube.com/1'), name('https://youtube.com/2')], ['b.txt', 'b.txt'], 'a set-aside file is skipped');
  t.equal(cookies.pick('https://youtube.com/3', new Set([b])), undefined, 'and none is left when the other was tried');
  t.match(
    cookies.states().filter((s) => s.site === 'youtube.com'),
    [
      { name: 'a.txt', state: 'set_aside', reason: 'login_required', since: /^\d{4}-/ },
      { name: 'b.txt', state: 'in_use' },
    ],
  );
  // the host exports a fresh login over it
  const later = new Date(Date.now() + 5000);
  fs.utimesSync(first.file, later, later);
  t.equal(cookies.states().find((s) => s.name === 'a.txt')?.state, 'in_use', 'back once its file changed');
  t.throws(() => new CookiePools(path.join(work, 'missing')), /YTDLP_COOKIES_DIR: cannot read/);
  const media = engineFeatures().find((f) => f.name === 'media')!;
  t.throws(() => media.check!(loadConfig({ YTDLP_COOKIES_DIR: path.join(work, 'missing') }), new EngineScope()), /YTDLP_COOKIES_DIR/, 'checked at boot');
});

t.test('a download whose first cookies file meets a bot check is resolved again with the next', async (t) => {
  const media = await startMediaServer();
  makeClip(media.dir);
  const clip = media.url('clip.mp4');
  const site = new URL(clip).hostname; // the pool is named for the media server's host
  const dir = pools({ [site]: ['a-refused.txt', 'b-fresh.txt'] });
  const log = path.join(work, 'cookies.log');
  // yt-dlp as a site with a bot check sees it: the refused login gets yt-dlp's own error, the
  // fresh one is let through to the real yt-dlp
  const ytdlp = path.join(work, 'yt-dlp');
  fs.writeFileSync(
    ytdlp,
    `#!/bin/sh
prev=''
for a in "$@"; do
  if [ "$prev" = "--cookies" ]; then echo "$(basename "$a")" >> '${log}'; case "$a" in *refused*) echo "ERROR: [generic] clip: Sign in to confirm you’re not a bot. Use --cookies-from-browser or --cookies for the authentication." >&2; exit 1;; esac; fi
  prev="$a"
done
exec yt-dlp "$@"
`,
    { mode: 0o755 },
  );
  const endpoints = loadEndpoints(ENDPOINTS_DIR).filter((e) => e.path === '/api/download/aio');
  const served: Served = await serve({ YTDLP_PATH: ytdlp, YTDLP_COOKIES_DIR: dir }, { endpoints, upstreamSpecs: [] });
  t.teardown(async () => {
    await served.close();
    await media.close();
  });
  const download = async () => {
    const res = await fetch(`${served.url}/api/download/aio?${new URLSearchParams({ url: clip, format: 'mp3', apikey: TEST_KEY })}`);
    const body = (await res.json()) as { message?: string; result?: { download_url?: string } };
    t.equal(res.status, 200, body.message ?? 'ok');
    t.ok(body.result?.download_url, 'the client gets its file');
  };
  await download();
  const runs = () => fs.readFileSync(log, 'utf8').trim().split('\n');
  t.same(runs().slice(0, 2), ['a-refused.txt', 'b-fresh.txt'], 'refused, then the next file');

  const metrics = await (await fetch(`${served.url}/metrics`)).text();
  t.match(metrics, `manifold_ytdlp_cookies{site="${site}",state="set_aside"} 1`);
  t.match(metrics, `manifold_ytdlp_cookies{site="${site}",state="in_use"} 1`);
  t.notMatch(metrics, /a-refused|b-fresh/, 'file names stay off /metrics');

  fs.writeFileSync(log, '');
  await download();
  t.notOk(runs().includes('a-refused.txt'), 'the set-aside file is not tried again');
});

import t from 'tap';
import yauzl from 'yauzl';
import { archiveSite, WEBZIP_LIMITS } from '../../engine/features/webzip/site-archive.js';
import { archivePath } from '../../engine/features/webzip/local-path.js';
import { ApiError } from '../../engine/core/errors.js';
import type { AdapterSetup, Call } from '../../engine/contract/call.js';

/** A site served from memory; a URL missing from it fails the way a refused or failed fetch does. */
function site(pages: Record<string, [string, string]>) {
  const asked: string[] = [];
  const setup = {
    http: {
      fetchUserUrl: async (url: string) => {
        asked.push(url);
        const hit = pages[url];
        if (!hit) throw new ApiError('invalid_parameter', 'refused');
        return { body: Buffer.from(hit[1]), contentType: hit[0], finalUrl: url };
      },
    },
  } as unknown as AdapterSetup;
  return { setup, asked };
}
const call = { signal: new AbortController().signal } as Call;

function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, async (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        }),
      );
      zip.on('end', () => resolve(files));
      zip.readEntry();
    });
  });
}

const PAGE =
  '<html><head><link rel="stylesheet" href="/a.css?v=1"><script src="https://cdn.example.net/lib.js"></script></head>' +
  '<body><img src="img/x.png#frag" srcset="img/x2.png 2x"><img src="http://10.0.0.1/private.png"><a href="other.html">other</a></body></html>';

t.test('the page and its assets, links rewritten to the saved copies', async (t) => {
  const { setup, asked } = site({
    'https://site.example/dir/': ['text/html; charset=utf-8', PAGE],
    'https://site.example/a.css?v=1': ['text/css', '@import "b.css"; body { background: url("img/bg.png") }'],
    'https://site.example/b.css': ['text/css', 'p { color: red }'],
    'https://site.example/img/bg.png': ['image/png', 'PNG'],
    'https://site.example/dir/img/x.png': ['image/png', 'PNG'],
    'https://cdn.example.net/lib.js': ['text/javascript', 'var x;'],
  });
  const r = await archiveSite(setup, call, 'https://site.example/dir/');
  t.equal(r.siteUrl, 'https://site.example/dir/');
  t.equal(r.files, 6, 'page, two stylesheets, two images, a script');
  t.equal(r.skipped, 1, 'the refused private image');
  t.notOk(
    asked.some((u) => u.endsWith('other.html')),
    'links to other pages are not followed',
  );
  const files = await unzip(r.zip);
  const css = [...files.keys()].find((f) => f.startsWith('assets/site.example/a-'))!;
  t.match(css, /^assets\/site\.example\/a-[0-9a-f]{8}\.css$/, 'a query string becomes part of the name');
  const html = files.get('index.html')!;
  t.match(html, `href="${css}"`);
  t.match(html, 'src="assets/cdn.example.net/lib.js"');
  t.match(html, 'src="assets/site.example/dir/img/x.png#frag"', 'the fragment is kept');
  t.notMatch(html, 'srcset', 'srcset candidates that were not saved are dropped');
  t.match(html, 'src="http://10.0.0.1/private.png"', 'a refused asset stays linked to its origin');
  t.match(html, 'href="other.html"');
  t.match(files.get(css)!, /@import "b\.css"/);
  t.match(files.get(css)!, /url\(img\/bg\.png\)/);
});

t.test('limits: file count, and a page that is not HTML', async (t) => {
  const imgs = Array.from({ length: 10 }, (_, i) => `<img src="/i${i}.png">`).join('');
  const pages: Record<string, [string, string]> = { 'https://s.example/': ['text/html', imgs] };
  for (let i = 0; i < 10; i++) pages[`https://s.example/i${i}.png`] = ['image/png', 'x'];
  const r = await archiveSite(site(pages).setup, call, 'https://s.example/', { ...WEBZIP_LIMITS, maxFiles: 4 });
  t.equal(r.files, 4);
  t.equal(r.skipped, 7);
  await t.rejects(archiveSite(site({ 'https://s.example/x.png': ['image/png', 'x'] }).setup, call, 'https://s.example/x.png'), {
    status: 400,
    code: 'invalid_parameter',
  });
});

t.test('archive paths stay inside the archive', async (t) => {
  const taken = new Set<string>();
  t.equal(archivePath(new URL('https://h.example/../../etc/passwd'), 'text/plain', taken), 'assets/h.example/etc/passwd');
  t.equal(archivePath(new URL('https://h.example/a/%2e%2e/%2e%2e/b'), undefined, taken), 'assets/h.example/b', 'the URL parser resolves encoded dots');
  t.equal(archivePath(new URL('https://h.example/logo'), 'image/png', taken), 'assets/h.example/logo.png');
  t.equal(archivePath(new URL('https://h.example/logo'), 'image/png', taken), 'assets/h.example/logo-2.png');
});

import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { AdapterSetup, Call } from '../../contract/call.js';
import { invalidParameter, payloadTooLarge } from '../../core/errors.js';
import { readCapped } from '../../platform/http/byte-limit.js';
import { archivePath, relativeLink } from './local-path.js';
import { cssReferences, htmlReferences, rewriteCss, rewriteHtml, type Rewrite } from './references.js';

/**
 * A web page and the files it needs to render (stylesheets, scripts, images, fonts,
 * icons, and what stylesheets import or point at), saved as a ZIP whose index.html
 * and stylesheets link to the saved copies, so it opens offline. Every fetch is a
 * user-URL fetch through the SSRF guard (a page cannot make the server read a private
 * address); an asset that fails or would break a limit is left linked to its origin
 * and counted in `skipped`, while the page itself must load.
 */
export const WEBZIP_LIMITS = {
  /** Files in the archive, the page included. */
  maxFiles: 150,
  /** Bytes of all files together (before compression). */
  maxBytes: 25 * 1024 * 1024,
  /** Bytes of one file. */
  maxFileBytes: 8 * 1024 * 1024,
  /** Per fetch. */
  fetchTimeoutMs: 10_000,
  /** Stylesheets importing stylesheets: levels followed below the page. */
  depth: 3,
  /** Fetches in flight at once. */
  parallel: 4,
};

export interface SiteArchive {
  zip: Buffer;
  siteUrl: string;
  files: number;
  skipped: number;
}

interface Saved {
  path: string;
  url: URL;
  body: Buffer;
  css: boolean;
}

const isCss = (url: URL, contentType?: string) => /text\/css/i.test(contentType ?? '') || url.pathname.endsWith('.css');

export async function archiveSite(setup: AdapterSetup, call: Call, pageUrl: string, limits = WEBZIP_LIMITS): Promise<SiteArchive> {
  const fetchUrl = (url: string, accept: string) =>
    setup.http.fetchUserUrl(url, { param: 'url', timeoutMs: limits.fetchTimeoutMs, signal: call.signal, maxBytes: limits.maxFileBytes, accept });
  const page = await fetchUrl(pageUrl, 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5');
  if (!/html/i.test(page.contentType ?? '')) throw invalidParameter('url', `not an HTML page (${page.contentType ?? 'no content type'})`);
  const siteUrl = page.finalUrl;
  const { doc, refs } = htmlReferences(page.body.toString('utf8'));
  // real progress for a job (GET /api/jobs/:id): the page is 10 %, its assets 10–90 % as they arrive, the ZIP the rest
  call.progress?.(10, 'fetching assets');
  let known = 0;
  let done = 0;

  const taken = new Set(['index.html']);
  const byUrl = new Map<string, Saved | null>();
  let bytes = page.body.length;
  let skipped = 0;

  const resolve = (ref: string, base: URL): URL | undefined => {
    try {
      const url = new URL(ref.trim(), base);
      url.hash = '';
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
    } catch {
      return undefined;
    }
  };

  /** One level: fetch what `wanted` names (new URLs only), return the stylesheets among them. */
  async function fetchLevel(wanted: URL[]): Promise<Saved[]> {
    const fresh = [...new Map(wanted.filter((u) => !byUrl.has(u.href)).map((u) => [u.href, u])).values()];
    for (const u of fresh) byUrl.set(u.href, null);
    known += fresh.length;
    const stylesheets: Saved[] = [];
    let next = 0;
    const worker = async () => {
      while (next < fresh.length) {
        const url = fresh[next++];
        if (taken.size >= limits.maxFiles || bytes >= limits.maxBytes) {
          skipped++;
          continue;
        }
        const got = await fetchUrl(url.href, '*/*').catch(() => undefined);
        call.progress?.(10 + (80 * ++done) / known, 'fetching assets');
        if (!got || bytes + got.body.length > limits.maxBytes || taken.size >= limits.maxFiles) {
          skipped++;
          continue;
        }
        bytes += got.body.length;
        const saved: Saved = { path: archivePath(url, got.contentType, taken), url, body: got.body, css: isCss(url, got.contentType) };
        byUrl.set(url.href, saved);
        if (saved.css) stylesheets.push(saved);
      }
    };
    await Promise.all(Array.from({ length: limits.parallel }, worker));
    return stylesheets;
  }

  const base = new URL(siteUrl);
  let level = await fetchLevel(refs.map((r) => resolve(r, base)).filter((u): u is URL => !!u));
  for (let depth = 1; depth < limits.depth && level.length; depth++) {
    const wanted = level.flatMap((css) =>
      safeCssRefs(css.body.toString('utf8'))
        .map((r) => resolve(r, css.url))
        .filter((u): u is URL => !!u),
    );
    level = await fetchLevel(wanted);
  }

  const linker =
    (from: string, base: URL): Rewrite =>
    (ref) => {
      const url = resolve(ref, base);
      const saved = url && byUrl.get(url.href);
      if (!saved) return undefined;
      const fragment = ref.includes('#') ? ref.slice(ref.indexOf('#')) : '';
      return relativeLink(from, saved.path) + fragment;
    };

  call.progress?.(90, 'zipping');
  const zip = new yazl.ZipFile();
  // one fixed timestamp: the same site gives the same archive bytes
  const mtime = new Date('2000-01-01T00:00:00Z');
  zip.addBuffer(Buffer.from(rewriteHtml(doc, linker('index.html', base))), 'index.html', { mtime });
  let files = 1;
  for (const saved of byUrl.values()) {
    if (!saved) continue;
    const body = saved.css ? rewriteStylesheet(saved, linker(saved.path, saved.url)) : saved.body;
    zip.addBuffer(body, saved.path, { mtime, compress: !/\.(png|jpe?g|gif|webp|woff2?|zip|gz|mp4|webm|mp3)$/i.test(saved.path) });
    files++;
  }
  zip.end();
  const archive = await readCapped(zip.outputStream as Readable, limits.maxBytes + 1024 * 1024, () => payloadTooLarge(limits.maxBytes));
  return { zip: archive, siteUrl, files, skipped };
}

/** A stylesheet that does not parse is saved as it came (its links then point at the origin). */
function safeCssRefs(css: string): string[] {
  try {
    return cssReferences(css).refs;
  } catch {
    return [];
  }
}

function rewriteStylesheet(saved: Saved, rewrite: Rewrite): Buffer {
  try {
    return Buffer.from(rewriteCss(saved.body.toString('utf8'), rewrite));
  } catch {
    return saved.body;
  }
}

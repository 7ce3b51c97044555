import { ApiError, notFound, upstreamError } from '../../../core/errors.js';
import { mimeTypeOf } from '../../../features/media/file-types.js';
import { urlMatcher } from '../../../features/media/url-match.js';
import { handler } from '../../../contract/handler.js';
import he from 'he';
import type { Params } from '../params.generated.js';

/**
 * /api/download/gdrivedl: a public Google Drive file's name, type, size and direct link.
 * Only the file id is taken from the user's URL (after it matched Drive's URL forms); the
 * google-drive upstream (drive.usercontent.google.com) is asked for
 * `/download?id=<id>&export=download`, which answers with either
 * - the file itself: its name is in Content-Disposition, its type and size in the other
 *   headers (the body is not read), and that address is the direct link; or
 * - for a file too large for Google's virus scan, an HTML warning page: the name and the
 *   size as Drive writes it are in `.uc-name-size`, the confirmed link is the page's
 *   `download-form` (its action and hidden inputs).
 * An HTML page without that form (a private file's sign-in page, an error page) means no
 * public file at this address.
 */
const URLS = [
  '^https?://drive\\.google\\.com/(?:file/(?:u/\\d+/)?d/[\\w-]{10,}|open\\?(?:[^#]*&)?id=[\\w-]{10,}|uc\\?(?:[^#]*&)?id=[\\w-]{10,})',
  '^https?://docs\\.google\\.com/(?:file/d/[\\w-]{10,}|uc\\?(?:[^#]*&)?id=[\\w-]{10,})',
  '^https?://drive\\.usercontent\\.google\\.com/(?:u/\\d+/)?download\\?(?:[^#]*&)?id=[\\w-]{10,}',
];
const matcher = urlMatcher(URLS, 'Google Drive file');
/** A warning or error page is a few kilobytes; more is not a page to read. */
const PAGE_MAX_BYTES = 1024 * 1024;

export function fileId(url: string): string {
  return (/\/d\/([\w-]{10,})/.exec(url) ?? /[?&]id=([\w-]{10,})/.exec(url))![1]!;
}

/** Text taken from HTML: its character references decoded (he: all of HTML's, not a hand-picked few). */
const decodeHtml = (s: string) => he.decode(s).trim();

/** The file name of a Content-Disposition header: `filename*=UTF-8''…` (RFC 6266) first, else `filename="…"`. */
export function dispositionName(header: string | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/.exec(header) ?? /filename\s*=\s*([^;]+)/.exec(header);
  return plain ? plain[1]!.trim() : null;
}

/** Name, size text and confirmed link of Drive's virus-scan warning page, or undefined when the page has no download form. */
export function readWarningPage(html: string, base: string): { name: string | null; size: string | null; link: string } | undefined {
  const form = /<form[^>]*id="download-form"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return undefined;
  const action = /action="([^"]+)"/i.exec(form[0])?.[1];
  if (!action) return undefined;
  const link = new URL(decodeHtml(action), `${base}/`);
  for (const input of form[1]!.matchAll(/<input[^>]*>/gi)) {
    const tag = input[0];
    if (!/type="hidden"/i.test(tag)) continue;
    const name = /name="([^"]+)"/i.exec(tag)?.[1];
    const value = /value="([^"]*)"/i.exec(tag)?.[1];
    if (name) link.searchParams.set(decodeHtml(name), decodeHtml(value ?? ''));
  }
  const nameSize = /<span class="uc-name-size"><a[^>]*>([^<]+)<\/a>\s*\(([^)]+)\)<\/span>/i.exec(html);
  return { name: nameSize ? decodeHtml(nameSize[1]!) : null, size: nameSize ? decodeHtml(nameSize[2]!) : null, link: link.href };
}

export default handler<Params['download/gdrivedl']>(async ({ params, call, setup }) => {
  matcher.check(params.url);
  const id = fileId(params.url);
  const base = setup.upstreams.get('google-drive').baseUrl;
  const query = { id, export: 'download' };
  const missing = 'No public Google Drive file at this address (it was removed, or is not shared with "anyone with the link")';
  const answer = await setup.upstreams.stream('google-drive', { path: '/download', query, signal: call.signal, notFound: missing });
  const type = answer.contentType?.split(';')[0]!.trim().toLowerCase();
  if (type !== 'text/html') {
    // the file itself: its headers say what it is; its bytes are for the client to fetch
    answer.body.destroy();
    const link = `${base}/download?${new URLSearchParams(query)}`;
    const name = dispositionName(answer.headers['content-disposition'] as string | undefined);
    if (!name) throw upstreamError('google-drive', 'the download answered without a file name');
    return {
      id,
      name,
      mimetype: type && type !== 'application/octet-stream' ? type : mimeTypeOf(name),
      size: answer.contentLength ?? null,
      size_text: null,
      download_url: link,
      download: link,
      source_url: params.url,
    };
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of answer.body) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).length;
    if (length > PAGE_MAX_BYTES) {
      answer.body.destroy();
      const link = `${base}/download?${new URLSearchParams(query)}`;
      throw upstreamError('google-drive', 'the download answered with an unexpectedly long page');
    }
  }
  const html = Buffer.concat(chunks).toString('utf8');
  const warning = readWarningPage(html, base);
  if (warning) {
    return {
      id,
      name: warning.name,
      mimetype: mimeTypeOf(warning.name),
      size: null,
      size_text: warning.size,
      download_url: warning.link,
      download: warning.link,
      source_url: params.url,
    };
  }
  if (/too many users have viewed or downloaded this file/i.test(html)) {
    throw new ApiError('media_unavailable', 'Google Drive refuses downloads of this file for now: too many users have downloaded it recently (quota exceeded)');
  }
  throw notFound(missing);
});

import crypto from 'node:crypto';
import path from 'node:path';

/**
 * Where a fetched asset goes inside the archive: `assets/<host>/<path>`, each segment
 * reduced to safe characters (no `..`, no absolute paths, no backslashes), a query
 * string folded into the name as a short hash so `a.css?v=1` and `a.css?v=2` stay
 * apart, and a name without extension given one from its content type.
 */
const SAFE = /[^A-Za-z0-9._-]+/g;
const EXT_BY_TYPE: Record<string, string> = {
  'text/css': '.css',
  'text/javascript': '.js',
  'application/javascript': '.js',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/svg+xml': '.svg',
  'image/x-icon': '.ico',
  'image/vnd.microsoft.icon': '.ico',
  'font/woff2': '.woff2',
  'font/woff': '.woff',
  'font/ttf': '.ttf',
  'font/otf': '.otf',
};

export function archivePath(url: URL, contentType: string | undefined, taken: Set<string>): string {
  const segments = url.pathname
    .split('/')
    .map((s) => decodeURIComponentSafe(s).replace(SAFE, '_'))
    .filter((s) => s && s !== '.' && s !== '..');
  let name = segments.pop() ?? 'index';
  let ext = path.posix.extname(name);
  if (!ext) {
    ext = EXT_BY_TYPE[(contentType ?? '').split(';')[0].trim().toLowerCase()] ?? '';
    name += ext;
  }
  if (url.search) name = `${name.slice(0, name.length - ext.length)}-${crypto.createHash('sha256').update(url.search).digest('hex').slice(0, 8)}${ext}`;
  const host = url.host.replace(SAFE, '_');
  let candidate = ['assets', host, ...segments, name].join('/');
  // two URLs that reduce to one name (e.g. differing only in unsafe characters) keep both files
  for (let n = 2; taken.has(candidate); n++) candidate = ['assets', host, ...segments, `${name.slice(0, name.length - ext.length)}-${n}${ext}`].join('/');
  taken.add(candidate);
  return candidate;
}

/** `to` as a link relative to the file `from` (both archive paths). */
export const relativeLink = (from: string, to: string): string => path.posix.relative(path.posix.dirname(from), to);

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

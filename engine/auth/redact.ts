/**
 * Secrets never reach a log line (CONTRACT.md). These helpers blank the values of
 * secret-looking parameters in URLs, bodies and headers before anything is logged.
 */

export const REDACTED = '[redacted]';

/** Parameter/field names whose values are secrets, compared in lower case. */
const SECRET_NAMES = new Set(['apikey', 'api_key', 'key', 'token', 'access_token', 'password', 'secret']);

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'cookie']);

const MAX_DEPTH = 8;

/** Params an endpoint marks `secret` (card numbers…), on top of the names above. */
const NONE: ReadonlySet<string> = new Set();

const isSecretName = (name: string) => SECRET_NAMES.has(name.toLowerCase());

const decodedName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw; // a malformed escape is not a secret name we know; keep it as written
  }
};

/** Redact a `a=1&b=2` query string, keeping everything else byte for byte. */
export function redactQuery(query: string, extraNames: ReadonlySet<string> = NONE): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      const decoded = decodedName(name);
      return eq !== -1 && (isSecretName(decoded) || extraNames.has(decoded)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
}

/**
 * Redact the query of a URL, path or bare query string
 * (`/api/x?apikey=k&q=1` → `/api/x?apikey=[redacted]&q=1`). The fragment is kept.
 */
export function redactUrl(url: string, extraNames: ReadonlySet<string> = NONE): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const q = beforeHash.indexOf('?');
  if (q !== -1) return beforeHash.slice(0, q + 1) + redactQuery(beforeHash.slice(q + 1), extraNames) + fragment;
  // No '?': a bare query string has '=' and is neither a path nor an absolute URL.
  const bare = beforeHash.includes('=') && !beforeHash.startsWith('/') && !beforeHash.includes('://');
  return bare ? redactQuery(beforeHash, extraNames) + fragment : url;
}

/** A copy of a parsed body with secret fields blanked at any depth; the input is not changed. */
export function redactBody(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED; // deeper than any real body: blank rather than walk it
  if (Array.isArray(value)) return value.map((item) => redactBody(item, depth + 1));
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    copy[name] = isSecretName(name) ? REDACTED : redactBody(field, depth + 1);
  }
  return copy;
}

/** A copy of request headers with credentials blanked. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const copy: typeof headers = {};
  for (const [name, value] of Object.entries(headers)) {
    copy[name] = SECRET_HEADERS.has(name.toLowerCase()) && value !== undefined ? REDACTED : value;
  }
  return copy;
}

/**
 * Secrets never reach a log line (docs/using/contract.md, docs/operating/security.md). These helpers blank secrets in URLs,
 * bodies, headers and free text (error messages, stacks) before anything is logged.
 *
 * Clients put keys in more places than the server reads them from: `apikey[]=`,
 * `;apikey=`, `APIKEY=`, `api_key=`, `api%6Bey=`, inside a URL-valued parameter
 * (`url=https://x/?apikey=K`, encoded once or twice), in userinfo. A near miss gets a
 * 401, and its URL still goes to the log, so redaction is deliberately wider than
 * authentication:
 * - a name is compared after undoing every layer of percent-encoding, NFKC, lower
 *   case and dropping everything but letters and digits, whole and per `[]`/`.` part;
 * - a value that decodes to a URL or query is redacted recursively;
 * - values that look like a personal key (`mf_…`), or equal a secret the caller
 *   names (the key the request presented), are blanked under any name;
 * - a final check decodes the result once more and, if a secret pair is still
 *   visible, drops the whole query rather than log it.
 */

import { KEY_PREFIX, personalKeyPattern } from './key-format.js';

export const REDACTED = '[redacted]';

/** Normalised names whose values are secrets (see normalise()). */
const SECRET_NAMES = new Set([
  'apikey',
  'key',
  'token',
  'accesstoken',
  'password',
  'passwd',
  'pwd',
  'pass',
  'secret',
  'auth',
  'authorization',
  'bearer',
  'credential',
  'credentials',
  'cookie',
  'setcookie',
  'session',
  'sessionid',
]);

/** Endings that make any name secret: `x_api_key`, `github_token`, `client_secret`, `proxy-authorization`. */
const SECRET_SUFFIXES = ['apikey', 'token', 'secret', 'password', 'passwd', 'accesskey', 'secretkey', 'privatekey', 'authkey', 'authorization'];

/** Personal keys, whole or cut short (key-format.ts). */
const PERSONAL_KEY = personalKeyPattern();

/** Known secrets shorter than this are not searched for: they would blank ordinary text. */
const MIN_KNOWN_SECRET = 6;

/** URL-valued parameters nest; no real URL nests deeper. */
const MAX_NESTING = 4;

/** A logged URL keeps this many characters (a 16 KB query would cost milliseconds and flood the log). */
const MAX_LOGGED_URL = 2048;

/** Percent-encoding layers undone; each layer shortens the text, so this bounds the work. */
const MAX_DECODE_LAYERS = 8;

const MAX_BODY_DEPTH = 8;

const NONE: ReadonlySet<string> = new Set();

/** What a call redacts on top of the secret names. */
interface Extra {
  /** Normalised names of the endpoint's `secret: true` params (and their aliases). */
  names: ReadonlySet<string>;
  /** Literal secrets to blank under any name (the key the request presented). */
  secrets: readonly string[];
}

/** `NFKC`, lower case, letters and digits only: `API_Key`, `api-key`, `ａｐｉｋｅｙ` → `apikey`. */
const normalise = (name: string) =>
  name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const secretWord = (word: string, extra: ReadonlySet<string>) =>
  word !== '' && (SECRET_NAMES.has(word) || extra.has(word) || SECRET_SUFFIXES.some((suffix) => word.endsWith(suffix)));

/** Whether a decoded parameter, field or header name holds a secret, whole or as one part of `a[b].c`. */
function isSecretName(decoded: string, extra: ReadonlySet<string> = NONE): boolean {
  if (extra === NONE) {
    // the same few names come back on every line (`level`, `url`, `apikey`…): remember the answers
    let known = plainAnswers.get(decoded);
    if (known === undefined) {
      if (plainAnswers.size >= MAX_REMEMBERED) plainAnswers.clear();
      plainAnswers.set(decoded, (known = computeSecretName(decoded, NONE)));
    }
    return known;
  }
  return computeSecretName(decoded, extra);
}

const MAX_REMEMBERED = 2000;
const plainAnswers = new Map<string, boolean>();

function computeSecretName(decoded: string, extra: ReadonlySet<string>): boolean {
  if (secretWord(normalise(decoded), extra)) return true;
  const parts = decoded.split(/[[\].]+/);
  return parts.length > 1 && parts.some((part) => secretWord(normalise(part), extra));
}

// normalised copies of the endpoint's secret-param sets, built once per set (pipeline/endpoint.ts builds one per endpoint)
const normalisedSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();
function normalisedNames(names: ReadonlySet<string>): ReadonlySet<string> {
  if (names.size === 0) return NONE;
  let set = normalisedSets.get(names);
  if (!set) normalisedSets.set(names, (set = new Set([...names].map(normalise).filter(Boolean))));
  return set;
}

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** One layer of form decoding that never throws: malformed escapes stay, invalid UTF-8 becomes U+FFFD. */
function decodeOnce(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  try {
    return decodeURIComponent(spaced); // the common, well-formed case, natively
  } catch {
    return spaced.replace(ESCAPE_RUN, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
  }
}

/** Undo every layer of percent-encoding (double-encoded URLs are common in shared links). */
function decodeFully(text: string): string {
  let current = text;
  for (let i = 0; i < MAX_DECODE_LAYERS && (current.includes('%') || current.includes('+')); i++) {
    const next = decodeOnce(current);
    if (next === current) break;
    current = next;
  }
  return current;
}

/** Re-encode a redacted inner URL as one query value: only what would change the outer query's meaning. */
const encodeValue = (text: string) => text.replace(/[%&;#+\s]/g, (c) => encodeURIComponent(c));

const hasKnownSecret = (decoded: string, extra: Extra) => {
  PERSONAL_KEY.lastIndex = 0;
  return PERSONAL_KEY.test(decoded) || extra.secrets.some((secret) => decoded.includes(secret));
};

/** A `name=value` list split on `&` and `;`, each pair redacted; separators kept as written. */
function redactPairs(text: string, extra: Extra, depth: number): string {
  return text
    .split(/([&;])/)
    .map((part, i) => (i % 2 === 1 ? part : redactPair(part, extra, depth)))
    .join('');
}

function redactPair(pair: string, extra: Extra, depth: number): string {
  if (pair === '') return pair;
  const eq = pair.indexOf('=');
  const rawName = eq === -1 ? pair : pair.slice(0, eq);
  const name = decodeFully(rawName);
  if (isSecretName(name, extra.names)) return eq === -1 ? pair : `${rawName}=${REDACTED}`;
  // a name that decodes to more pairs (`apikey%3DK`) or hides a key is rewritten as a whole
  const safeName = redactComponent(rawName, name, extra, depth);
  if (eq === -1) return safeName;
  const rawValue = pair.slice(eq + 1);
  return `${safeName}=${redactComponent(rawValue, decodeFully(rawValue), extra, depth)}`;
}

/** A name or value: kept as written unless its decoded form carries a secret. */
function redactComponent(raw: string, decoded: string, extra: Extra, depth: number): string {
  if (hasKnownSecret(decoded, extra)) return REDACTED;
  if (depth < MAX_NESTING && /[=;@]/.test(decoded)) {
    const inner = redactNested(decoded, extra, depth + 1);
    if (inner !== decoded) return encodeValue(inner);
  }
  return raw;
}

/** userinfo of an absolute URL: `https://user:pass@host` → `https://user:[redacted]@host`. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/[^/?#@:]*:)[^/?#@]*@/i;

/** A URL, path or bare query string, with everything secret blanked. */
function redactNested(url: string, extra: Extra, depth: number): string {
  const hash = url.indexOf('#');
  const beforeHash = hash === -1 ? url : url.slice(0, hash);
  // a fragment never reaches the server, but a logged URL-valued parameter may carry one
  const fragment = hash === -1 ? '' : '#' + redactPairs(url.slice(hash + 1), extra, depth);
  const q = beforeHash.indexOf('?');
  const path = q === -1 ? beforeHash : beforeHash.slice(0, q);
  // No '?': a bare query string has '=' and is neither a path nor an absolute URL.
  if (q === -1 && path.includes('=') && !path.startsWith('/') && !path.includes('://')) {
    return redactPairs(path, extra, depth) + fragment;
  }
  const query = q === -1 ? '' : '?' + redactPairs(beforeHash.slice(q + 1), extra, depth);
  return redactPath(path.replace(USERINFO, `$1${REDACTED}@`), extra, depth) + query + fragment;
}

/** Path segments with matrix params (`/x;apikey=K`) or a key in them are redacted like a query. */
function redactPath(path: string, extra: Extra, depth: number): string {
  const decoded = /[%+]/.test(path) ? decodeFully(path) : path;
  if (!/[;=@]/.test(decoded) && !hasKnownSecret(decoded, extra)) return path;
  return path
    .split('/')
    .map((segment) => {
      const decoded = decodeFully(segment);
      if (hasKnownSecret(decoded, extra)) return REDACTED;
      return /[;=]/.test(decoded) ? redactPairs(segment, extra, depth) : segment;
    })
    .join('/');
}

/** Characters that end a pair's name (looking back from its `=`) and its value. */
const NAME_STOPS = charTable(' \t\r\n&;?#=/"\'<>{}(),');
const VALUE_STOPS = charTable(' \t\r\n&;#"\'<>');

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}
const stopsAt = (table: Uint8Array, code: number) => code < 128 && table[code] === 1;

/** `"name": "value"` in JSON text, `Name: value` in header dumps, `user:pass@` in URLs, `Bearer <token>`. */
const JSON_PAIR = /"([^"\\]{1,100})"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const HEADER_PAIR = /(?<![\w-])([A-Za-z][\w-]{0,60})[ \t]*:[ \t]*([^\s,;][^\r\n,;]*)/g;
const USERINFO_ANYWHERE = /(:\/\/[^/?#@:\s]*:)([^/?#@\s]+)@/g;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/**
 * Blank the value of every `name=value` pair whose name is secret. Each `=` is found
 * and its name read backwards, so the scan is linear and also sees the pairs nested
 * in a URL-valued value.
 */
function scrubPairs(text: string, extra: Extra): string {
  let out = '';
  let copied = 0;
  let eq = text.indexOf('=');
  while (eq !== -1) {
    let start = eq;
    while (start > 0 && !stopsAt(NAME_STOPS, text.charCodeAt(start - 1))) start--;
    let next = eq + 1;
    if (start < eq && isSecretName(decodeFully(text.slice(start, eq)), extra.names)) {
      let end = eq + 1;
      while (end < text.length && !stopsAt(VALUE_STOPS, text.charCodeAt(end))) end++;
      const value = text.slice(eq + 1, end);
      if (value !== '' && value !== REDACTED) {
        out += text.slice(copied, eq + 1) + REDACTED;
        copied = end;
      }
      next = end;
    }
    eq = text.indexOf('=', next);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Blank group `value` of each match whose group `name` is secret (JSON and header pairs). */
function scrubMatches(text: string, pattern: RegExp, extra: Extra, closing: string): string {
  let out = '';
  let copied = 0;
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    const value = m[2]!;
    if (value === '' || value === REDACTED || !isSecretName(m[1]!, extra.names)) continue;
    const valueEnd = m.index + m[0].length - closing.length;
    out += text.slice(copied, valueEnd - value.length) + REDACTED;
    copied = valueEnd;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

const blankUserinfo = (match: string, head: string, pass: string) => (pass === REDACTED ? match : `${head}${REDACTED}@`);
const blankBearer = (_match: string, scheme: string) => `${scheme} ${REDACTED}`;

/** Every secret pair of a text blanked, and every known secret; `free` adds the patterns of prose. */
function scrubText(text: string, extra: Extra, free: boolean): string {
  let out = text.includes('=') ? scrubPairs(text, extra) : text;
  if (out.includes('"')) out = scrubMatches(out, JSON_PAIR, extra, '"');
  if (free) out = scrubMatches(out.replace(BEARER, blankBearer), HEADER_PAIR, extra, '');
  if (out.includes('@')) out = out.replace(USERINFO_ANYWHERE, blankUserinfo);
  if (out.includes(KEY_PREFIX)) out = out.replace(PERSONAL_KEY, REDACTED);
  for (const secret of extra.secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out;
}

/** Whether a text still shows a secret once fully decoded. */
const leaks = (text: string, extra: Extra, free: boolean) => {
  const decoded = decodeFully(text);
  return scrubText(decoded, extra, free) !== decoded;
};

function extraOf(names: ReadonlySet<string>, secrets: readonly (string | undefined)[]): Extra {
  const known = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_KNOWN_SECRET);
  return { names: normalisedNames(names), secrets: known };
}

/**
 * A URL over the limit ends at its last whole pair or segment: a value cut in two
 * could show half a key that no longer matches it.
 */
function cutLongUrl(url: string): string {
  if (url.length <= MAX_LOGGED_URL) return url;
  const head = url.slice(0, MAX_LOGGED_URL);
  return head.slice(0, Math.max(0, ...['&', ';', '?', '/'].map((sep) => head.lastIndexOf(sep))));
}

/**
 * Redact the query (and matrix params, userinfo, URL-valued params) of a URL, path
 * or bare query string, keeping everything else as written:
 * `/api/x?apikey=k&q=1` → `/api/x?apikey=[redacted]&q=1`.
 * `secretNames` are the endpoint's `secret: true` params; `secrets` literal values
 * to blank under any name (e.g. the key the request presented).
 */
export function redactUrl(url: string, secretNames: ReadonlySet<string> = NONE, secrets: readonly (string | undefined)[] = []): string {
  const extra = extraOf(secretNames, secrets);
  const kept = cutLongUrl(url);
  const out = redactNested(kept, extra, 0) + (kept === url ? '' : `…(+${url.length - kept.length} chars)`);
  if (!leaks(out, extra, false)) return out;
  // something secret is still visible once decoded (an encoding trick the passes above missed):
  // keep the path when it is clean, never the query
  const path = out.split(/[?#]/, 1)[0]!;
  return leaks(path, extra, false) ? REDACTED : `${path}?${REDACTED}`;
}

/** Free text (an error message, a stack) with secret pairs, bearer tokens and personal keys blanked. */
export function redactText(text: string, secrets: readonly (string | undefined)[] = []): string {
  const extra = extraOf(NONE, secrets);
  const out = scrubText(text, extra, true);
  // an encoded secret: scrub the decoded text instead (its escapes are lost, the secret too)
  return leaks(out, extra, true) ? scrubText(decodeFully(out), extra, true) : out;
}

const NO_EXTRA: Extra = { names: NONE, secrets: [] };

/**
 * The last guard over a serialised JSON log line: secret `name=value` and JSON pairs,
 * userinfo and personal keys, blanked in place (no decoding: the line stays valid JSON).
 */
export const redactLogLine = (line: string): string => scrubText(line, NO_EXTRA, false);

/** A copy of a parsed body with secret fields blanked at any depth; the input is not changed. */
export function redactBody(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return /[=:%]|mf_/.test(value) ? redactText(value) : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_BODY_DEPTH) return REDACTED; // deeper than any real body: blank rather than walk it
  if (Array.isArray(value)) return value.map((item) => redactBody(item, depth + 1));
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    copy[name] = isSecretName(decodeFully(name)) ? REDACTED : redactBody(field, depth + 1);
  }
  return copy;
}

/** A copy of request headers with credentials blanked (and keys inside e.g. a Referer URL). */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  const copy: typeof headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) copy[name] = value;
    else if (isSecretName(name)) copy[name] = REDACTED;
    else copy[name] = Array.isArray(value) ? value.map((v) => redactText(v)) : redactText(value);
  }
  return copy;
}

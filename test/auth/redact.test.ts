import fc from 'fast-check';
import t from 'tap';
import { REDACTED, redactBody, redactHeaders, redactLogLine, redactText, redactUrl } from '../../engine/platform/auth/redact.js';
import { createLogger } from '../../engine/platform/log.js';

const KEY = 'Zq7vK2pLx9Wm4';

/** Every layer of percent-encoding undone, leniently: what a reader of the log could recover. */
function decodeAll(text: string): string {
  let current = text;
  for (let i = 0; i < 10; i++) {
    const next = current.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString('utf8'));
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** Whether a text shows the secret, as written or once decoded. */
const shows = (text: string, secret: string) => text.includes(secret) || decodeAll(text).includes(secret);

/** The access-log line the server writes for a URL, through the real logger. */
function logLineFor(url: string, secretNames?: ReadonlySet<string>): string {
  const lines: string[] = [];
  createLogger({ level: 'info', destination: (line) => lines.push(line) }).info({
    requestId: 'r',
    method: 'GET',
    url: redactUrl(url, secretNames),
    status: 401,
    ms: 1,
  });
  return lines.join('\n');
}

t.test('the near misses of the issue never show the key', async (t) => {
  const urls = [
    `/api/x?apikey[]=${KEY}`,
    `/api/x?q=1;apikey=${KEY}`,
    `/api/x?APIKEY=${KEY}`,
    `/api/x?api_key=${KEY}`,
    `/api/x?apiKey=${KEY}`,
    `/api/x?key=${KEY}`,
    `/api/x?token=${KEY}`,
    `/api/x?api%6Bey=${KEY}`,
    `/api/x?apikey=${KEY}&apikey=${KEY}&apikey`,
    `/api/x?apikey%3D${KEY}`,
    `/api/x;apikey=${KEY}`,
    `/api/x?a[apikey]=${KEY}&b.token=${KEY}`,
    `/api/x?%EF%BD%81pikey=${KEY}`, // fullwidth 'a'
    `/api/download/ytmp3?url=https://x.test/?apikey=${KEY}`,
    `/api/download/ytmp3?url=${encodeURIComponent(`https://x.test/w?v=1&apikey=${KEY}`)}`,
    `/api/download/ytmp3?url=${encodeURIComponent(encodeURIComponent(`https://x.test/w?v=1&apikey=${KEY}`))}`,
    `/api/download/ytmp3?url=https://bob:${KEY}@x.test/`,
    `/api/download/ytmp3?url=${encodeURIComponent(`https://x.test/?data={"apikey":"${KEY}"}`)}`,
    `/api/x?next=${encodeURIComponent(`/login#token=${KEY}`)}`,
  ];
  for (const url of urls) {
    const out = redactUrl(url);
    t.notOk(shows(out, KEY), `${url} → ${out}`);
    t.notOk(shows(logLineFor(url), KEY), `log line of ${url}`);
  }
});

t.test('redactUrl keeps everything else as written', async (t) => {
  t.equal(redactUrl('/api/ai/ai?q=hello%20world&apikey=mf_secret'), '/api/ai/ai?q=hello%20world&apikey=[redacted]');
  t.equal(
    redactUrl('https://x.test/a?KEY=1&token=2&password=3&secret=4&api_key=5&access_token=6&keep=7#frag'),
    'https://x.test/a?KEY=[redacted]&token=[redacted]&password=[redacted]&secret=[redacted]&api_key=[redacted]&access_token=[redacted]&keep=7#frag',
  );
  t.equal(redactUrl('/a?api%6Bey=mf_x'), '/a?api%6Bey=[redacted]', 'percent-encoded names keep their spelling');
  t.equal(redactUrl('apikey=mf_x&q=1'), 'apikey=[redacted]&q=1', 'bare query string');
  t.equal(redactUrl('/api/fun/quote'), '/api/fun/quote');
  t.equal(redactUrl('/a?apikey&q=%E0%A4%A'), '/a?apikey&q=%E0%A4%A', 'no value, malformed escapes: unchanged');
  t.equal(redactUrl('/a?monkey=1&keys=2&max_tokens=3&keyword=4'), '/a?monkey=1&keys=2&max_tokens=3&keyword=4', 'names that only contain a secret word');
  t.equal(redactUrl('/api/download/ytmp3?url=https://www.youtube.com/watch?v=abc&t=1'), '/api/download/ytmp3?url=https://www.youtube.com/watch?v=abc&t=1');
  t.equal(redactUrl('/d?url=https%3A%2F%2Fx.test%2F%3Fv%3D1'), '/d?url=https%3A%2F%2Fx.test%2F%3Fv%3D1', 'an encoded URL without secrets stays encoded');
  t.equal(
    redactUrl('/d?url=https%3A%2F%2Fx.test%2F%3Fapikey%3DK%26v%3D1'),
    '/d?url=https://x.test/?apikey=[redacted]%26v=1',
    'a redacted inner URL stays one value',
  );
  t.equal(redactUrl('/d?q=a;b&apikey=k#x=1'), '/d?q=a;b&apikey=[redacted]#x=1');
});

t.test('keys are blanked under any name: personal keys by their shape, known secrets by value', async (t) => {
  const personal = 'mf_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
  t.equal(redactUrl(`/api/x?q=${personal}`), `/api/x?q=${REDACTED}`);
  t.equal(redactUrl(`/api/x/${personal}/y`), `/api/x/${REDACTED}/y`);
  t.equal(redactUrl(`/api/x?q=${KEY}&n=1`, undefined, [KEY]), `/api/x?q=${REDACTED}&n=1`);
  t.equal(redactUrl(`/api/x?q=${encodeURIComponent('say ' + KEY)}`, undefined, [KEY]), `/api/x?q=${REDACTED}`);
  t.equal(redactUrl('/api/x?q=abc', undefined, ['ab', undefined]), '/api/x?q=abc', 'secrets too short to search for are ignored');
});

t.test('a long URL is cut at its last whole pair before it is redacted', async (t) => {
  const filler = 'q=' + 'x'.repeat(2030);
  const out = redactUrl(`/a?${filler}&apikey=${KEY}${'y'.repeat(5000)}&n=1`);
  t.match(out, /^\/a\?q=x+…\(\+\d+ chars\)$/);
  t.ok(out.length < 2100);
  t.notOk(shows(out, KEY.slice(0, 6)), 'no part of the key');
  const start = performance.now();
  for (const url of ['/a?q=' + '='.repeat(16000), '/a?' + 'a=1&'.repeat(4000), '/a?' + 'a'.repeat(16000) + '=']) redactUrl(url, new Set(['x']), [KEY]);
  t.ok(performance.now() - start < 1000, 'bounded work for 16 KB URLs'); // generous: a shared, slow machine
});

t.test("an endpoint's secret params are blanked in every spelling", async (t) => {
  const card = '4111111111111111';
  const secret = new Set(['number', 'cardNumber']);
  for (const name of ['number', 'NUMBER', 'number[]', 'Number%5B0%5D', 'card_number', 'card-number', 'cardnumber']) {
    const out = redactUrl(`/api/checker/card?${name}=${card}&x=1`, secret);
    t.notOk(shows(out, card), `${name} → ${out}`);
    t.match(out, /&x=1$/);
  }
  t.equal(redactUrl('/api/checker/card?phonenumber=1', secret), '/api/checker/card?phonenumber=1', 'exact names only');
});

// --- the property: generated spellings, nestings and encodings --------------------------

const upperSome = (text: string, flags: boolean[]) => [...text].map((c, i) => (flags[i % flags.length] ? c.toUpperCase() : c)).join('');
/** Percent-encode the flagged characters, even those a browser leaves as they are (`%61` for `a`). */
const encodeSome = (text: string, flags: boolean[]) =>
  [...text]
    .map((c, i) => (flags[i % flags.length] ? [...Buffer.from(c)].map((b) => '%' + b.toString(16).toUpperCase().padStart(2, '0')).join('') : c))
    .join('');
const encodeTimes = (text: string, times: number) => {
  let out = text;
  for (let i = 0; i < times; i++) out = encodeURIComponent(out);
  return out;
};

const BASE_NAMES = [
  'apikey',
  'api_key',
  'api-key',
  'apiKey',
  'API.KEY',
  'api key',
  'x-api-key',
  'key',
  'token',
  'access_token',
  'auth_token',
  'password',
  'secret',
  'client_secret',
  'authorization',
];

/** A secret parameter name as a client may spell it: case, decoration, partial percent-encoding. */
const secretName = fc
  .record({
    base: fc.constantFrom(...BASE_NAMES),
    caseFlags: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    decoration: fc.constantFrom('', '[]', '[0]', ' ', '+', '%20', '\u200b'),
    wrap: fc.constantFrom('%s', 'a[%s]', 'data.%s', 'user[%s][0]'),
    encodeFlags: fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }),
    encodeLayers: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ base, caseFlags, decoration, wrap, encodeFlags, encodeLayers }) => {
    const name = wrap.replace('%s', upperSome(base, caseFlags) + decoration);
    return encodeLayers === 0 ? name : encodeTimes(encodeSome(name, encodeFlags), encodeLayers - 1);
  });

const keyValue = fc.stringMatching(/^[A-Za-z0-9_-]{16,43}$/);

/** A request URL carrying `key` under a generated name, possibly inside a URL-valued parameter. */
const leakyUrl = fc
  .record({
    key: keyValue,
    name: secretName,
    separator: fc.constantFrom('&', ';', '&amp;'),
    copies: fc.integer({ min: 1, max: 3 }),
    before: fc.constantFrom('', 'q=hello%20world', 'url=https%3A%2F%2Fyoutu.be%2Fabc', 'n=1;m=2'),
    nestIn: fc.constantFrom('', 'url', 'link', 'u', 'redirect_uri'),
    nestLayers: fc.integer({ min: 0, max: 3 }),
    inPath: fc.boolean(),
  })
  .map(({ key, name, separator, copies, before, nestIn, nestLayers, inPath }) => {
    const pairs = Array.from({ length: copies }, () => `${name}=${key}`).join(separator);
    const query = nestIn ? `${nestIn}=${encodeTimes(`https://x.test/w?v=1&${pairs}`, nestLayers)}` : pairs;
    const url = inPath && !nestIn ? `/api/x;${pairs}` : `/api/x?${[before, query].filter(Boolean).join(separator)}`;
    return { key, url };
  });

t.test('property: a key under any generated spelling never reaches the log line', async (t) => {
  fc.assert(
    fc.property(leakyUrl, ({ key, url }) => {
      const redacted = redactUrl(url);
      if (shows(redacted, key)) throw new Error(`redactUrl(${url}) = ${redacted}`);
      const line = logLineFor(url);
      if (shows(line, key)) throw new Error(`logged ${line}`);
      JSON.parse(line); // still one JSON object
    }),
    { numRuns: 2000 },
  );
  t.pass('2000 generated URLs');
});

t.test('property: an ordinary URL is logged exactly as received', async (t) => {
  const plainParam = fc.record({
    name: fc.constantFrom('q', 'text', 'url', 'lang', 'page', 'monkey', 'keys', 'max_tokens', 'keyword', 'tokens'),
    value: fc.stringMatching(/^[A-Za-z0-9._~-]{0,20}$/),
  });
  fc.assert(
    fc.property(fc.array(plainParam, { maxLength: 5 }), (params) => {
      const url = '/api/x' + (params.length ? '?' + params.map((p) => `${p.name}=${p.value}`).join('&') : '');
      if (redactUrl(url) !== url) throw new Error(`${url} → ${redactUrl(url)}`);
    }),
    { numRuns: 500 },
  );
  t.pass();
});

// --- bodies, headers, free text --------------------------------------------------------

t.test('redactBody copies and blanks secret fields at any depth', async (t) => {
  const body = { apikey: 'mf_x', q: 'hi', nested: { Password: 'p', list: [{ token: 't', n: 1 }] }, file: Buffer.alloc(3) };
  t.same(redactBody(body), {
    apikey: REDACTED,
    q: 'hi',
    nested: { Password: REDACTED, list: [{ token: REDACTED, n: 1 }] },
    file: '<3 bytes>',
  });
  t.equal(body.apikey, 'mf_x', 'the input is unchanged');
  t.equal(redactBody('plain'), 'plain');
  t.equal(redactBody(null), null);
  t.same(redactBody({ API_KEY: KEY, 'api%6Bey': KEY, note: `see https://x.test/?token=${KEY}` }), {
    API_KEY: REDACTED,
    'api%6Bey': REDACTED,
    note: `see https://x.test/?token=${REDACTED}`,
  });
  let deep: Record<string, unknown> = { apikey: 'mf_deep' };
  for (let i = 0; i < 20; i++) deep = { child: deep };
  t.notMatch(JSON.stringify(redactBody(deep)), /mf_deep/, 'very deep bodies never leak');
});

t.test('redactHeaders blanks credentials and keys inside other values', async (t) => {
  t.same(
    redactHeaders({
      authorization: 'Bearer mf_x',
      'X-API-Key': 'mf_y',
      'x-auth-token': 't',
      cookie: 'c',
      referer: `https://x.test/?apikey=${KEY}`,
      accept: 'text/html;q=0.9',
      'x-forwarded-for': ['1.2.3.4'],
    }),
    {
      authorization: REDACTED,
      'X-API-Key': REDACTED,
      'x-auth-token': REDACTED,
      cookie: REDACTED,
      referer: `https://x.test/?apikey=${REDACTED}`,
      accept: 'text/html;q=0.9',
      'x-forwarded-for': ['1.2.3.4'],
    },
  );
});

t.test('redactText scrubs error messages and stacks', async (t) => {
  t.equal(redactText(`GET https://api.x.test/v1?key=${KEY}&q=1 failed`), `GET https://api.x.test/v1?key=${REDACTED}&q=1 failed`);
  t.equal(redactText(`Authorization: Bearer ${KEY}`), `Authorization: ${REDACTED}`);
  t.equal(redactText(`sent bearer ${KEY} upstream`), `sent bearer ${REDACTED} upstream`);
  t.equal(redactText(`body {"api_key":"${KEY}","q":"x"}`), `body {"api_key":"${REDACTED}","q":"x"}`);
  t.notOk(shows(redactText(`GET /x?api%255Fkey%3D${KEY}`), KEY), 'double-encoded');
  t.equal(redactText('Error: timeout after 5000 ms\n    at f (file:///a.js:1:2)'), 'Error: timeout after 5000 ms\n    at f (file:///a.js:1:2)');
});

t.test('redactLogLine keeps the line valid JSON', async (t) => {
  const line = JSON.stringify({ msg: `upstream https://x.test/?token=${KEY}`, body: { apikey: KEY }, url: '/a?q=1' });
  const out = redactLogLine(line);
  t.notOk(out.includes(KEY));
  t.same(JSON.parse(out), { msg: `upstream https://x.test/?token=${REDACTED}`, body: { apikey: REDACTED }, url: '/a?q=1' });
});

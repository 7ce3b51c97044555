/**
 * The registry-wide SSRF sweep: every endpoint param that takes a URL, called with URLs
 * that aim at an internal service, on an engine with the default address policy and every
 * upstream "available" the way the conformance harness makes them (fixture servers).
 *
 * The stand-in internet is the one of ./client-user-url.test.ts: the engine's guard treats
 * exactly 127.0.0.1 as public (so `${fixtures}` URLs of the other params still load) and
 * keeps every other rule, and its resolver maps `internal.test` to 127.0.0.2. A server on
 * 127.0.0.2 plays the internal service: over the whole sweep it must see no connection, and
 * every answer must be a 4xx envelope (a 503 is an endpoint not available here: counted and
 * printed apart, it proves nothing). An endpoint that fetched a user URL with a plain client
 * or handed it to yt-dlp, Chromium or ffmpeg unguarded fails here, named.
 */
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
import type { Endpoint, Example, ParamSpec } from '../../engine/core/manifest-types.js';
import { nonPublicReason } from '../../engine/platform/http/address-policy.js';
import { createSsrfGuard, systemResolver, type Resolver } from '../../engine/platform/http/ssrf-guard.js';
import { offlineEnv, startFixtureEnvironment } from '../support/fixture-environment.js';
import { serve, TEST_KEY, type Served } from '../support/serve.js';
import { callEndpoint, type Answer } from '../support/call.js';
import { validParams } from '../support/valid-params.js';

const started = Date.now();
const PUBLIC_IP = '127.0.0.1';
const INTERNAL_IP = '127.0.0.2';
const INTERNAL_NAME = 'internal.test';

/** Param names that carry a URL in this genre (what the manifests use: url, image, mask, avatar, …). */
const URL_NAME = /url|link|image|img|src|video|audio|file|webhook|avatar|background|mask|photo|icon|logo|thumb/i;

const SHORTENER = 'a shortener: the link is handed to the shortening service as text, never fetched';
/**
 * Params (`<endpoint id> <param>`) that are data, never fetched: the URL is parsed, encoded or
 * handed to a third-party service as text, or the name matched but the value is a colour. They
 * may answer 200 (or 502 when the fixture upstream does not know the made-up link); they must
 * still reach nothing internal and never answer 500.
 */
const URL_AS_DATA: Record<string, string> = {
  'GET /api/checker/url url': 'checks the spelling and public suffix of the URL, fetches nothing',
  'GET /api/tools/urlparse url': 'splits the URL into its parts, fetches nothing',
  'GET /api/tools/createqr text': 'the text encoded in the QR code',
  'GET /api/tools/createqr background': 'a colour',
  'POST /api/tools/carbon background': 'a colour',
  'GET /api/search/spotifyplaylist query': 'a search text, or a playlist link read for its id; only the Spotify API is asked',
  'GET /api/tools/adfoc url': SHORTENER,
  'GET /api/tools/cleanuri url': SHORTENER,
  'GET /api/tools/rebrandly url': SHORTENER,
  'GET /api/tools/tinyurl url': SHORTENER,
  'GET /api/tools/vurl url': SHORTENER,
};

const endpoints = loadEndpoints(ENDPOINTS_DIR);
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));

/** The params of `endpoint` that take a URL: by schema format, by name, or by an example that gives one. */
function urlParams(endpoint: Endpoint): string[] {
  const takesString = (spec: ParamSpec) => spec.schema.type === undefined || [spec.schema.type].flat().includes('string');
  const urlExample = (name: string) =>
    endpoint.examples.some((e) => typeof e.params[name] === 'string' && /^(https?:|\$\{fixtures\})/.test(e.params[name] as string));
  return Object.entries(endpoint.params)
    .filter(([, spec]) => spec.in !== 'file' && takesString(spec))
    .filter(([name, spec]) => /"format":"uri(-reference)?"/.test(JSON.stringify(spec.schema)) || URL_NAME.test(name) || urlExample(name))
    .map(([name]) => name);
}

const swept = endpoints.map((endpoint) => ({ endpoint, params: urlParams(endpoint) })).filter((s) => s.params.length > 0);

// the internal service: counts connections, not only requests, so a client speaking anything reaching it is caught
const internal = { connections: 0, requests: [] as string[] };
const internalServer = http.createServer((req, res) => {
  internal.requests.push(`${req.method} ${req.url}`);
  res.setHeader('content-type', 'image/png');
  res.end('internal secrets');
});
internalServer.on('connection', () => internal.connections++);
await new Promise<void>((resolve) => internalServer.listen(0, INTERNAL_IP, resolve));
const port = (internalServer.address() as AddressInfo).port;
t.teardown(() => new Promise((resolve) => internalServer.close(resolve)));

/** The internal service, spelled as an IP literal, as IPv4-mapped IPv6, and as a name that resolves to it. */
const SPELLINGS = [`http://${INTERNAL_IP}:${port}/x`, `http://[::ffff:${INTERNAL_IP}]:${port}/x`, `http://${INTERNAL_NAME}:${port}/x`];

const resolver: Resolver = async (host) => (host === INTERNAL_NAME ? [{ address: INTERNAL_IP, family: 4 }] : systemResolver(host));
const guard = createSsrfGuard({ allowPrivate: false, resolver, addressProblem: (ip) => (ip === PUBLIC_IP ? undefined : nonPublicReason(ip)) });

// ALLOW_PRIVATE_URLS unset: the default policy, with the guard above standing in for the internet
const environment = await startFixtureEnvironment(endpoints, upstreamSpecs, { ALLOW_PRIVATE_URLS: undefined }, { guard });
t.teardown(() => environment.close());

/** The example the other params come from: the first that succeeds (an error example's params may be broken on purpose). */
const exampleOf = (endpoint: Endpoint): Example => endpoint.examples.find((e) => (e.expect.status ?? 200) === 200) ?? endpoint.examples[0];

interface Outcome {
  endpoint: Endpoint;
  param: string;
  url: string;
  answer: Answer;
  reached: number;
}

async function sweep(endpoint: Endpoint, params: string[]): Promise<Outcome[]> {
  const example = exampleOf(endpoint);
  const served = await environment.engineFor(example.env);
  for (const server of [environment.upstream, environment.dns, environment.whois]) server.use(example.fixtures ?? [], endpoint.dir);
  const base = validParams(endpoint, environment.upstream.filesBase, example);
  const before = internal.connections;
  const calls = params.flatMap((param) =>
    SPELLINGS.map(async (url) => {
      const answer = await callEndpoint(served.url, endpoint, { ...base, [param]: url }, { key: endpoint.public ? undefined : TEST_KEY, files: example.files });
      return { endpoint, param, url, answer };
    }),
  );
  const answers = await Promise.all(calls);
  const reached = internal.connections - before;
  return answers.map((a) => ({ ...a, reached }));
}

const outcomes: Outcome[] = [];
const unavailable = new Map<string, string>();

for (const { endpoint, params } of swept) {
  await t.test(`${endpoint.id} (${params.join(', ')})`, async (t) => {
    const results = await sweep(endpoint, params);
    outcomes.push(...results);
    t.equal(results[0].reached, 0, 'the internal service saw no connection');
    for (const { param, url, answer } of results) {
      const body = answer.json ?? {};
      const what = `${param}=${url}: HTTP ${answer.status} ${body.error ?? ''} ${answer.status >= 400 ? (body.message ?? '') : ''}`;
      t.not(answer.status, 500, `not a 500 (${what})`);
      if (answer.status === 503) {
        unavailable.set(endpoint.id, body.message ?? '');
        continue;
      }
      if (URL_AS_DATA[`${endpoint.id} ${param}`]) continue;
      t.ok(answer.status >= 400 && answer.status < 500, `refused with a 4xx (${what})`);
      t.match(body, { status: answer.status, success: false, error: String, message: String }, `an error envelope (${what})`);
    }
  });
}

const startedEngines = new Set<Served>();

/** Call `endpoint` with `param` aimed inside, as a job: refused at submission, or the job fails refusing it. */
async function refusedAsJob(t: Test, endpoint: Endpoint, param: string) {
  const example = exampleOf(endpoint);
  const served = await environment.engineFor(example.env);
  // what runs the jobs (the in-process queue's worker) starts with the engine's features
  if (!startedEngines.has(served)) await served.engine.start();
  startedEngines.add(served);
  environment.upstream.use(example.fixtures ?? [], endpoint.dir);
  const base = validParams(endpoint, environment.upstream.filesBase, example);
  const submitted = await callEndpoint(served.url, endpoint, { ...base, [param]: SPELLINGS[2], async: true }, { key: TEST_KEY });
  t.comment(`async: ${endpoint.id} ${param}=${SPELLINGS[2]} → HTTP ${submitted.status}`);
  if (submitted.status !== 202) {
    t.match(submitted.json, { status: 400, success: false, error: 'unsupported_url' }, `${endpoint.id}: refused at submission`);
    return;
  }
  const statusUrl = new URL(submitted.json.result.status_url);
  statusUrl.searchParams.set('apikey', TEST_KEY);
  let job: any;
  for (let i = 0; i < 200; i++) {
    job = (await (await fetch(statusUrl)).json()).result;
    if (job.status === 'completed' || job.status === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.match(job, { status: 'failed', error: { error: 'unsupported_url' } }, `${endpoint.id}: the job failed refusing the URL`);
}

t.test('the job path refuses too: async=true (one endpoint per adapter kind), and an internal callback_url', async (t) => {
  const before = internal.connections;
  const refused = (endpoint: Endpoint) => outcomes.some((o) => o.endpoint === endpoint && o.answer.json?.error === 'unsupported_url');
  const targets = new Map<string, { endpoint: Endpoint; params: string[] }>();
  for (const s of swept) if (s.endpoint.async && refused(s.endpoint) && !targets.has(s.endpoint.adapter.kind)) targets.set(s.endpoint.adapter.kind, s);
  if (targets.size === 0) return t.fail('no async endpoint with a URL param was exercised');
  for (const { endpoint, params } of targets.values()) await refusedAsJob(t, endpoint, params[0]);

  const { endpoint, params } = [...targets.values()][0];
  const served = await environment.engineFor(exampleOf(endpoint).env);
  const base = validParams(endpoint, environment.upstream.filesBase, exampleOf(endpoint));
  const callback = await callEndpoint(
    served.url,
    endpoint,
    { ...base, [params[0]]: base[params[0]], async: true, callback_url: SPELLINGS[0] },
    { key: TEST_KEY },
  );
  t.match(
    callback.json,
    { status: 400, success: false, error: 'unsupported_url', details: [{ param: 'callback_url' }] },
    'an internal callback_url is refused',
  );
  t.equal(internal.connections - before, 0, 'the internal service saw no connection');
});

t.test('over the whole sweep the internal service saw nothing', async (t) => {
  // a fetch started in the background of an answered call would land late: give it a moment
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(internal.connections, 0, 'no connection');
  t.same(internal.requests, [], 'no request');
  const sweptParams = new Set(swept.flatMap(({ endpoint, params }) => params.map((p) => `${endpoint.id} ${p}`)));
  t.same(
    Object.keys(URL_AS_DATA).filter((key) => !sweptParams.has(key)),
    [],
    'every URL-as-data exception names a swept param',
  );
  const paramCount = swept.reduce((n, s) => n + s.params.length, 0);
  const lines = [
    `ssrf sweep: ${swept.length} endpoints, ${paramCount} URL params, ${outcomes.length} calls in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `ssrf sweep: ${unavailable.size} endpoints answered 503 (unavailable here, not exercised)${[...unavailable].map(([id, why]) => `\n#   ${id}: ${why}`).join('')}`,
    `ssrf sweep: ${Object.keys(URL_AS_DATA).length} of those params are URLs as data, not fetched (may answer 200)`,
  ];
  const codes = new Map<string, number>();
  for (const { answer } of outcomes) {
    const code = `${answer.status} ${answer.json?.error ?? ''}`.trim();
    codes.set(code, (codes.get(code) ?? 0) + 1);
  }
  lines.push(`ssrf sweep: answers ${[...codes].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
  for (const line of lines) console.log(`# ${line}`);
});

t.test('the sweep can see a leak: with the guard lifted (ALLOW_PRIVATE_URLS=1) a swept call reaches the internal service', async (t) => {
  const leak = outcomes.find((o) => o.url === SPELLINGS[0] && o.answer.json?.error === 'unsupported_url' && o.endpoint.adapter.kind !== 'media');
  if (!leak) return t.fail('no swept call was refused by the guard');
  const { endpoint, param } = leak;
  const example = exampleOf(endpoint);
  const open = await serve({ ...offlineEnv(upstreamSpecs, environment), ...example.env, ALLOW_PRIVATE_URLS: '1' }, { endpoints, upstreamSpecs });
  t.teardown(() => open.close());
  environment.upstream.use(example.fixtures ?? [], endpoint.dir);
  const before = internal.connections;
  const params = { ...validParams(endpoint, environment.upstream.filesBase, example), [param]: SPELLINGS[0] };
  const answer = await callEndpoint(open.url, endpoint, params, { key: endpoint.public ? undefined : TEST_KEY, files: example.files });
  t.comment(`canary: ${endpoint.id} ${param}=${SPELLINGS[0]} without the guard → HTTP ${answer.status} ${answer.json?.error ?? ''}`);
  t.ok(internal.connections > before, `${endpoint.id} reached the internal service once the guard was lifted`);
});

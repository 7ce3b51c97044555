/**
 * The conformance harness, generated from the registry: no per-endpoint test code.
 * For every endpoint: 401 without a key, 400 missing_parameter for each required
 * param, 400 invalid_parameter for a value breaking a schema, and every manifest
 * example run against the local fixture upstream with its expectations asserted.
 * Example params may point at a fixture file as `${fixtures}/<file>` (served by the
 * same local server). DNS lookups go to a local DNS server and WHOIS queries to a
 * local WHOIS server, both answering from the example's `dns` / `whois` fixtures
 * (./support/fixture-dns.ts, ./support/fixture-whois.ts). It also fails on fixture
 * files that no example uses.
 */
import fs from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import sharp from 'sharp';
import { ENDPOINTS_DIR } from '../engine/app/app.js';
import { loadEndpoints } from '../engine/catalog/load.js';
import { loadUpstreamSpecs } from '../engine/catalog/upstreams.js';
import type { Endpoint, Example } from '../engine/core/manifest-types.js';
import { startFixtureEnvironment } from './support/fixture-environment.js';
import { TEST_KEY } from './support/serve.js';
import { callEndpoint, type Answer } from './support/call.js';
import { invalidValueFor } from './support/invalid-values.js';
import { expandFixtureUrls, fixtureUrlFiles } from './support/fixture-urls.js';
import { DNS_UPSTREAM, WHOIS_UPSTREAM } from './support/fixture-book.js';
import { checkDocument } from './support/expect-document.js';
import { validParams as validParamsOf } from './support/valid-params.js';

const endpoints = loadEndpoints(ENDPOINTS_DIR);
const upstreamSpecs = loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams'));
const expectAjv = new Ajv({ strict: false, allErrors: true });
addFormats.default(expectAjv);

// test/conformance-postgres.test.ts runs this whole suite once more with the state in PostgreSQL
const stateEnv: Record<string, string> = process.env.CONFORMANCE_DATABASE_URL ? { DATABASE_URL: process.env.CONFORMANCE_DATABASE_URL } : {};
const environment = await startFixtureEnvironment(endpoints, upstreamSpecs, stateEnv);
const { upstream: fixtures, dns: dnsFixtures, whois: whoisFixtures } = environment;

/** Fixture files the examples' own pages fetched (a page's stylesheets and images): used, though no example names them. */
const fetchedByPages = new Set<string>();

/** One engine per distinct example env (most examples share the default one). */
const engineFor = environment.engineFor;

t.teardown(() => environment.close());

/** Valid params for the endpoint: its first example's, topped up with param examples. */
const validParams = (endpoint: Endpoint) => validParamsOf(endpoint, fixtures.filesBase);

const declaredSchemas = new Map<string, ValidateFunction>();
/** The endpoint's resultSchema, compiled once per distinct schema (family members share theirs). */
function resultSchemaOf(endpoint: Endpoint): ValidateFunction {
  const key = JSON.stringify(endpoint.resultSchema);
  let validate = declaredSchemas.get(key);
  if (!validate) declaredSchemas.set(key, (validate = expectAjv.compile(endpoint.resultSchema!)));
  return validate;
}

function assertEnvelopeError(t: Test, answer: Answer, status: number, code: string) {
  t.equal(answer.status, status, `HTTP ${status}`);
  t.match(answer.json, { status, success: false, error: code, message: String }, `envelope with error ${code}`);
  t.notMatch(JSON.stringify(answer.json ?? {}), /\n\s+at .+:\d+:\d+/, 'no stack trace');
}

async function runExample(t: Test, endpoint: Endpoint, example: Example) {
  const served = await engineFor(example.env);
  for (const server of [fixtures, dnsFixtures, whoisFixtures]) server.use(example.fixtures ?? [], endpoint.dir);
  // public endpoints are called the way people use them: without a key
  const params = expandFixtureUrls(example.params, fixtures.filesBase);
  const answer = await callEndpoint(served.url, endpoint, params, { key: endpoint.public ? undefined : TEST_KEY, files: example.files });
  const expect = example.expect;
  const status = expect.status ?? 200;
  t.equal(answer.status, status, `HTTP ${status}${answer.status !== status ? `: ${answer.bytes.toString('utf8', 0, 300)}` : ''}`);
  t.ok(answer.headers.get('x-request-id'), 'X-Request-Id set');
  if (expect.error) assertEnvelopeError(t, answer, status, expect.error);
  else if (expect.contentType || expect.image || expect.document) {
    if (expect.contentType) t.ok((answer.headers.get('content-type') ?? '').startsWith(expect.contentType), `Content-Type ${expect.contentType}`);
    t.ok(answer.bytes.length > 0, 'non-empty body');
    if (expect.image) {
      const meta = await sharp(answer.bytes)
        .metadata()
        .catch((err: Error) => ({ error: err.message }));
      t.match(meta, expect.image, `image ${JSON.stringify(expect.image)}`);
    }
    if (expect.document) await checkDocument(t, answer.bytes, expect.document);
  } else {
    t.match(answer.json, { status: 200, success: true, creator: String }, 'success envelope');
    if (expect.result) {
      const validate = expectAjv.compile(expect.result);
      t.ok(validate(answer.json?.result), `result matches the example's schema ${expectAjv.errorsText(validate.errors)}`);
    }
    // the endpoint's declared answer (what OpenAPI publishes) must hold for every success, so the docs cannot drift from the wire
    if (endpoint.resultSchema) {
      const declared = resultSchemaOf(endpoint);
      t.ok(declared(answer.json?.result), `result matches the endpoint's resultSchema ${expectAjv.errorsText(declared.errors)}`);
    }
  }
  const { files, ...http } = fixtures.hits();
  for (const file of files) fetchedByPages.add(path.resolve(endpoint.dir, 'fixtures', file));
  const hits = [http, dnsFixtures.hits(), whoisFixtures.hits()];
  const used = new Set(hits.flatMap((h) => [...h.used]));
  const unmatched = hits.flatMap((h) => h.unmatched);
  t.same(unmatched, [], 'nothing asked that no fixture answers (HTTP, WHOIS, DNS)');
  const unused = (example.fixtures ?? []).map((f, i) => (used.has(i) ? null : `${f.upstream} ${f.path}`)).filter(Boolean);
  t.same(unused, [], 'every fixture of the example was requested');
  const unfetched = fixtureUrlFiles(example.params).filter((file) => !files.has(file));
  t.same(unfetched, [], 'every ${fixtures} file of the example was fetched');
}

let covered = 0;
for (const endpoint of endpoints) {
  await t.test(`${endpoint.id} (${endpoint.file})`, async (t) => {
    const served = await engineFor();
    t.ok(endpoint.examples.length > 0, 'has at least one example');

    if (!endpoint.public) {
      const noKey = await callEndpoint(served.url, endpoint, validParams(endpoint));
      assertEnvelopeError(t, noKey, 401, 'missing_api_key');
      const badKey = await callEndpoint(served.url, endpoint, validParams(endpoint), { key: 'not-a-key' });
      assertEnvelopeError(t, badKey, 401, 'invalid_api_key');
    }

    for (const [name, spec] of Object.entries(endpoint.params)) {
      if (spec.required && spec.in !== 'file' && spec.in !== 'path') {
        const params = validParams(endpoint);
        delete params[name];
        const answer = await callEndpoint(served.url, endpoint, params, { key: TEST_KEY });
        assertEnvelopeError(t, answer, 400, 'missing_parameter');
        t.match(answer.json?.details, [{ param: name, problem: 'required' }], `names ${name}`);
      }
      const bad = spec.in === 'file' ? undefined : invalidValueFor(spec.schema);
      if (bad !== undefined) {
        const answer = await callEndpoint(served.url, endpoint, { ...validParams(endpoint), [name]: bad }, { key: TEST_KEY });
        assertEnvelopeError(t, answer, 400, 'invalid_parameter');
        t.match(answer.json?.details, [{ param: name }], `names ${name}`);
      }
    }

    for (const [i, example] of endpoint.examples.entries()) {
      await t.test(`example ${example.name ?? i + 1}`, (t) => runExample(t, endpoint, example));
    }
    covered++;
  });
}

t.test('dns and whois fixtures go to upstreams of those protocols, served by the harness', async (t) => {
  const protocols = Object.fromEntries(upstreamSpecs.map((s) => [s.name, s.protocol ?? 'http']));
  t.same([protocols[DNS_UPSTREAM], protocols[WHOIS_UPSTREAM]], ['dns', 'whois']);
});

t.test('every fixture file is used by some example', async (t) => {
  const referenced = new Set<string>();
  for (const e of endpoints) for (const ex of e.examples) for (const f of ex.fixtures ?? []) if (f.file) referenced.add(path.resolve(e.dir, f.file));
  for (const e of endpoints) for (const ex of e.examples) for (const file of Object.values(ex.files ?? {})) referenced.add(path.resolve(e.dir, file));
  for (const e of endpoints)
    for (const ex of e.examples)
      for (const file of fixtureUrlFiles([ex.params, ...(ex.fixtures ?? []).map((f) => f.json)])) referenced.add(path.resolve(e.dir, 'fixtures', file));
  for (const file of fetchedByPages) referenced.add(file);
  const onDisk: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (full.split(path.sep).includes('fixtures')) onDisk.push(full);
    }
  };
  walk(ENDPOINTS_DIR);
  t.same(
    onDisk.filter((f) => !referenced.has(f)).map((f) => path.relative(ENDPOINTS_DIR, f)),
    [],
    'no orphan fixtures',
  );
});

t.test('every endpoint declares its result (resultSchema), which its successful examples are checked against', async (t) => {
  t.same(
    endpoints.filter((e) => !e.resultSchema).map((e) => e.file),
    [],
    'no endpoint without a resultSchema',
  );
});

t.test('coverage', async (t) => {
  t.equal(covered, endpoints.length, 'every registered endpoint was exercised');
  t.comment(`conformance: covered ${covered} of ${endpoints.length} endpoints`);
  console.log(`# conformance: covered ${covered} of ${endpoints.length} endpoints (100%)`);
});

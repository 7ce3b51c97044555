import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { Validator } from '@seriousme/openapi-schema-validator';
import { loadConfig } from '../../engine/platform/config.js';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints, loadManifestFile } from '../../engine/catalog/load.js';
import { EndpointRouter } from '../../engine/catalog/router.js';
import type { EndpointRegistry, Route } from '../../engine/pipeline/endpoint-registry.js';
import { buildOpenApi } from '../../engine/pipeline/discovery/openapi.js';
import { builtin } from '../../engine/pipeline/builtin.js';
import { ERROR_CODES } from '../../engine/core/error-codes.js';

/**
 * The generated document for the real catalog plus synthetic manifests covering the
 * shapes it may not have yet (multipart with files, path params, streamable, binary,
 * aliases that fold to one operationId, an unavailable endpoint), checked with a real
 * OpenAPI 3.1 schema validator.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const synthetic = fs
  .readdirSync(path.join(here, 'manifests'))
  .flatMap((f) => loadManifestFile(path.join(here, 'manifests', f), `test/discovery/manifests/${f}`));
const endpoints = [...loadEndpoints(ENDPOINTS_DIR), ...synthetic];
if (new Set(endpoints.map((e) => e.id)).size !== endpoints.length) throw new Error('a synthetic manifest takes the path of a real endpoint: rename it');
const routes: Route[] = endpoints.map((endpoint) =>
  endpoint.requires.env.length ? { endpoint, unavailable: `${endpoint.requires.env.join(', ')} not set` } : { endpoint },
);
const registry: EndpointRegistry = {
  routes,
  byId: new Map(routes.map((r) => [r.endpoint.id, r])),
  router: new EndpointRouter(endpoints),
  built: Promise.resolve(),
};
const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.example.test/', CREATOR: 'Tester' });
// two built-in routes, as the engine's table declares them (engine/pipeline/builtin.ts)
const builtins = [
  builtin({ method: 'GET', path: '/health', auth: 'none', summary: 'Liveness', handle: () => undefined }),
  builtin({
    method: 'GET',
    path: '/checkapikey',
    aliases: ['/api/checkapikey'],
    auth: 'key',
    summary: 'Own key',
    result: { type: 'object' },
    handle: () => undefined,
  }),
  builtin({ method: 'GET', path: '/docs/:file', auth: 'none', hidden: true, summary: 'Assets', handle: () => undefined }),
];
const doc = buildOpenApi(registry, config, undefined, builtins) as any;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([p, item]) =>
  Object.entries(item)
    .filter(([m]) => HTTP_METHODS.includes(m))
    .map(([method, op]) => ({ path: p, method, op })),
);
const op = (method: string, p: string) => doc.paths[p]?.[method];
const resolve = (value: any) =>
  value?.$ref
    ? value.$ref
        .split('/')
        .slice(1)
        .reduce((o: any, k: string) => o[k], doc)
    : value;

t.test('is a valid OpenAPI 3.1 document', async (t) => {
  const validator = new Validator();
  const res = await validator.validate(structuredClone(doc));
  t.same(res.errors ?? [], [], 'no schema errors');
  t.ok(res.valid);
  t.equal(validator.version, '3.1');

  // the validator can fail: a document without info is rejected
  const broken = structuredClone(doc);
  delete broken.info;
  t.notOk((await new Validator().validate(broken)).valid, 'a broken document fails validation');
});

t.test('header: version, server, security schemes', async (t) => {
  t.equal(doc.openapi, '3.1.0');
  t.equal(doc.info.version, '3.0.4');
  t.same(doc.servers, [{ url: 'https://api.example.test' }]);
  t.same(doc.components.securitySchemes.apiKeyQuery, { type: 'apiKey', in: 'query', name: 'apikey' });
  t.same(doc.components.securitySchemes.apiKeyHeader, { type: 'apiKey', in: 'header', name: 'X-API-Key' });
  t.match(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer' });
  t.equal(doc.security.length, 3);
  t.same(
    doc.tags.slice(0, 9).map((tag: any) => tag.name),
    ['ai', 'download', 'tools', 'search', 'effects', 'fun', 'sports', 'checker', 'tempgen'],
  );
});

t.test('every endpoint and alias is an operation with its category as first tag', async (t) => {
  // one assertion over all ~2,000 operations: a list of what is wrong, expected empty
  const problems: string[] = [];
  const expect = (ok: boolean, what: string) => ok || problems.push(what);
  let checked = 0;
  for (const { endpoint, unavailable } of routes) {
    for (const p of [endpoint.path, ...endpoint.aliases]) {
      const where = `${endpoint.method} ${p}`;
      const o = op(endpoint.method.toLowerCase(), p.replace(/:(\w+)/g, '{$1}'));
      if (!o) {
        problems.push(`${where}: missing`);
        continue;
      }
      expect(o.tags[0] === endpoint.category, `${where}: first tag ${o.tags[0]}, category ${endpoint.category}`);
      // `long-running` marks the endpoint for the jobs feature: an operation extension, not a docs group
      expect(
        JSON.stringify(o.tags.slice(1)) === JSON.stringify(endpoint.tags.filter((tag) => tag !== endpoint.category && tag !== 'long-running')),
        `${where}: tags ${o.tags}`,
      );
      expect((o['x-long-running'] === true) === (endpoint.tags.includes('long-running') || endpoint.async), `${where}: x-long-running`);
      // async: true endpoints take async=true and callback_url, and answer 202 with the job
      if (endpoint.async) {
        const names = new Set(o.parameters.map((p: any) => p.name));
        expect(names.has('async') && names.has('callback_url') && o.responses['202'] !== undefined, `${where}: async, callback_url and 202`);
      }
      expect(o.summary === endpoint.summary, `${where}: summary`);
      expect(o['x-available'] === !unavailable && o['x-unavailable-reason'] === unavailable, `${where}: availability`);
      expect(p === endpoint.path || o.description.startsWith(`Alias of ${endpoint.method} ${endpoint.path}`), `${where}: alias description`);
      for (const status of ['200', '400', '401', '429', '500', '502', '503', '504']) expect(Boolean(o.responses[status]), `${where}: no ${status}`);
      checked++;
      // a POST endpoint that also answers GET: its GET operation has every param in the query, no body
      if (endpoint.alsoGet) {
        const g = op('get', p.replace(/:(\w+)/g, '{$1}'));
        if (!g) {
          problems.push(`GET ${p} (alsoGet): missing`);
          continue;
        }
        if (!g.description.startsWith('The same as POST') && !g.description.startsWith('Alias of GET')) continue; // a GET endpoint of its own
        const inQuery = new Set(g.parameters.filter((q: any) => q.in === 'query').map((q: any) => q.name));
        expect(g.requestBody === undefined, `GET ${p}: no request body`);
        for (const [name, spec] of Object.entries(endpoint.params)) if (spec.in === 'body') expect(inQuery.has(name), `GET ${p}: ${name} in the query`);
        checked++;
      }
    }
  }
  t.same(problems, [], 'every operation as generated from its endpoint');
  const system = operations.filter(({ op: o }) => o.tags[0] === 'system').length;
  t.equal(operations.length, checked + system, 'no operation without an endpoint');
  t.equal(system, 3, '/health, /checkapikey and its alias; hidden routes left out');
  t.ok(checked > synthetic.length, 'the real catalog is in it');
  t.comment(`${checked} endpoint operations checked`);
});

t.test('operationIds are unique, including paths that fold to the same words', async (t) => {
  const ids = operations.map(({ op: o }) => o.operationId);
  t.equal(new Set(ids).size, ids.length);
  // the path and both aliases spell the same words
  t.equal(op('get', '/api/effects/discovery-test-banner').operationId, 'getApiEffectsDiscoveryTestBanner');
  t.equal(op('get', '/api/effects/Discovery-Test-Banner').operationId, 'getApiEffectsDiscoveryTestBanner_2');
  t.equal(op('get', '/api/effects/discovery-test.banner').operationId, 'getApiEffectsDiscoveryTestBanner_3');
});

t.test('success and error envelopes', async (t) => {
  const { Success, Error } = doc.components.schemas;
  t.same(Success.required, ['status', 'success', 'creator', 'result']);
  t.same(Error.required, ['status', 'success', 'creator', 'error', 'message']);
  const contractCodes = [
    'missing_parameter',
    'invalid_parameter',
    'unsupported_url',
    'missing_api_key',
    'invalid_api_key',
    'forbidden',
    'not_found',
    'method_not_allowed',
    'payload_too_large',
    'unsupported_media_type',
    'rate_limited',
    'internal_error',
    'upstream_error',
    'unavailable',
    'overloaded',
    'upstream_timeout',
  ];
  // every code of the contract's table, and exactly the codes the engine answers (test/discovery/error-codes.test.ts scans for them)
  for (const code of contractCodes) t.ok(Error.properties.error.enum.includes(code), `${code} documented`);
  const answered = Object.entries(ERROR_CODES)
    .filter(([, row]) => !('answered' in row))
    .map(([code]) => code);
  t.same([...Error.properties.error.enum].sort(), answered.sort());
  t.notOk(Error.properties.error.enum.includes('client_closed'), 'a code never sent is not documented');
  for (const [code, row] of Object.entries(ERROR_CODES)) {
    if ('answered' in row) continue;
    const response = doc.components.responses[String(row.status)];
    t.ok(response.content['application/json'].schema.allOf[1].properties.error.enum.includes(code), `${code} under ${row.status}`);
    t.match(response.description, row.meaning);
  }
  const tooMany = resolve(op('get', '/api/fun/quote').responses['429']);
  t.same(tooMany.content['application/json'].schema.allOf[1].properties.error.enum, ['rate_limited', 'daily_quota_exceeded']);
  t.ok(tooMany.headers['Retry-After']);
  t.match(tooMany.content['application/json'].example, { status: 429, success: false, creator: 'Tester', error: 'rate_limited' });

  const quote = op('get', '/api/fun/quote');
  const schema = quote.responses['200'].content['application/json'].schema;
  t.same(schema.allOf[0], { $ref: '#/components/schemas/Success' });
  t.same(schema.allOf[1].properties.result, endpoints.find((e) => e.path === '/api/fun/quote')!.resultSchema);
  t.ok(quote.responses['404'], 'quote has a not_found example, so 404 is listed');
  t.notOk(quote.responses['413'], 'no body, no 413');
  t.ok(quote.parameters.some((p: any) => p.$ref === '#/components/parameters/apikey'));
});

t.test('multipart upload: file part, body params, query params, unavailable', async (t) => {
  const upload = op('post', '/api/tools/discovery-test-upload');
  t.same(upload.tags, ['tools', 'files']);
  t.same(
    upload.parameters.map((p: any) => p.name ?? p.$ref),
    ['expires', '#/components/parameters/apikey'],
  );
  t.equal(upload.requestBody.required, true);
  const multipart = upload.requestBody.content['multipart/form-data'];
  t.match(multipart.schema.properties.file, { type: 'string', format: 'binary' });
  t.same(multipart.schema.required, ['file']);
  t.ok(multipart.schema.properties.apikey, 'key may be a form field');
  t.same(multipart.examples['an-image'].value, { name: 'cat.png' });
  const json = upload.requestBody.content['application/json'];
  t.notOk(json.schema.properties.file, 'no file part in a JSON body');
  t.notOk(upload.requestBody.content['application/x-www-form-urlencoded'], 'only the declared body types');
  t.ok(upload.responses['413'] && upload.responses['415']);
  t.equal(upload['x-available'], false);
  t.equal(upload['x-unavailable-reason'], 'DISCOVERY_TEST_UNSET not set');
  t.match(upload.description, 'Unavailable on this server');
  t.equal(op('post', '/api/discovery-test-upload').operationId, 'postApiDiscoveryTestUpload');
});

t.test('streamable download with a path param and param aliases', async (t) => {
  const download = op('get', '/api/download/discovery-test/{id}');
  const byName = Object.fromEntries(download.parameters.filter((p: any) => p.name).map((p: any) => [p.name, p]));
  t.match(byName.id, { in: 'path', required: true });
  t.same(byName.quality['x-aliases'], ['q', 'res']);
  t.match(byName.quality.description, 'Also accepted as: q, res.');
  t.same(
    Object.values(byName.quality.examples).map((e: any) => e.value),
    ['low', 'high'],
    'example values under the canonical name',
  );
  t.match(byName.formats, { style: 'form', explode: false });
  t.match(byName.stream, { in: 'query', schema: { type: 'boolean', default: false } });
  const content = download.responses['200'].content;
  t.ok(content['application/json'], 'envelope by default');
  t.match(content['video/mp4'], { schema: { type: 'string', format: 'binary' } }, 'bytes with stream=true');
  t.ok(download.responses['404']);
});

t.test('examples on harness-served fixture URLs are left out', async (t) => {
  const readqr = op('get', '/api/tools/readqr');
  t.ok(
    endpoints.find((e) => e.path === '/api/tools/readqr')!.examples.some((e) => JSON.stringify(e.params).includes('${fixtures}')),
    'readqr has such an example',
  );
  t.notMatch(JSON.stringify(readqr), '${fixtures}');
  t.equal(readqr.parameters.find((p: any) => p.name === 'url').example, 'https://example.com/qr.png', 'the param example stays');
});

t.test('binary response, deprecated', async (t) => {
  const banner = op('get', '/api/effects/discovery-test-banner');
  t.same(Object.keys(banner.responses['200'].content), ['image/*']);
  t.equal(banner.deprecated, true);
  t.equal(banner.parameters[0].example, 'hello');
});

t.test('built-in routes are documented from their table: auth none has no security, auth key the apikey parameter', async (t) => {
  t.same(doc.paths['/health'].get.security, []);
  t.match(doc.paths['/checkapikey'].get, {
    tags: ['system'],
    parameters: [{ $ref: '#/components/parameters/apikey' }],
    responses: { 200: { content: Object }, 401: Object, 429: Object },
  });
  t.match(doc.paths['/api/checkapikey'].get.description, /^Alias of GET \/checkapikey/);
  t.notOk(doc.paths['/docs/{file}'], 'hidden');
});

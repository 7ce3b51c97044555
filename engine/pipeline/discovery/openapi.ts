import type { Config } from '../../platform/config.js';
import type { EndpointRegistry, Route } from '../endpoint-registry.js';
import type { BodyType, Endpoint } from '../../core/manifest-types.js';
import type { Builtin } from '../builtin.js';
import { API_KEY_PARAM, IMPLICIT_PARAMS, implicitParamsOf } from '../../core/implicit-params.js';
import { ERROR_CODES, answeredCodesByStatus } from '../../core/error-codes.js';

/**
 * GET /openapi.json: an OpenAPI 3.1 document generated from the registry, so the
 * docs can never drift from what the engine serves. Every endpoint path and every
 * alias path is an operation; the category slug is always the first tag.
 * GET /openapi/<category>.json holds one category's operations (what /docs shows:
 * Swagger UI needs tens of seconds for the whole catalog at once).
 */

type Json = Record<string, unknown>;

/** Category slugs (CONTRACT.md) with the spec's names, for the tag list. */
export const CATEGORY_NAMES: Record<Endpoint['category'], string> = {
  ai: 'AI & Chat',
  download: 'Downloaders',
  tools: 'Developer Tools',
  search: 'Search & Stalker',
  effects: 'Image Effects',
  fun: 'Anime & Fun',
  sports: 'Sports',
  checker: 'Checker & Validator',
  tempgen: 'TempGen & Shortener',
};

/** Every code a client can receive, by status, described by the table's meanings (engine/core/error-codes.ts). */
const ERRORS = new Map(
  [...answeredCodesByStatus()].map(([status, codes]) => [status, { codes, description: codes.map((c) => `\`${c}\`: ${ERROR_CODES[c].meaning}`).join('\n\n') }]),
);

/** Statuses every endpoint can answer with. */
const COMMON_ERRORS = [400, 401, 408, 422, 429, 431, 500, 502, 503, 504];

const MEDIA_TYPES: Record<BodyType, string> = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' };

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * Manifest tags that mark an endpoint for the engine (the jobs feature finds long work by
 * `long-running`) rather than group it in the docs: an operation extension, not an
 * OpenAPI tag, so Swagger UI lists the operation under its category only.
 */
const MARKER_TAGS = new Set(['long-running']);

/**
 * Build the whole document, or one category's (without the built-in routes). Pure: the
 * same registry and config give the same document.
 */
export function buildOpenApi(registry: EndpointRegistry, config: Config, category?: Endpoint['category'], builtins: readonly Builtin[] = []): Json {
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  const extraTags = new Set<string>();
  for (const route of registry.routes) {
    const { endpoint } = route;
    if (category && endpoint.category !== category) continue;
    endpoint.tags.forEach((t) => MARKER_TAGS.has(t) || extraTags.add(t));
    // a POST endpoint that also answers GET (manifest/types.ts `alsoGet`) is documented under both
    const views = endpoint.alsoGet ? [endpoint, asGet(endpoint)] : [endpoint];
    for (const view of views) {
      const primary = operation({ ...route, endpoint: view });
      for (const p of [endpoint.path, ...endpoint.aliases]) {
        const item = (paths[openApiPath(p)] ??= {});
        const method = view.method.toLowerCase();
        // a GET endpoint of its own on the path is what the router serves
        if (view !== endpoint && item[method]) continue;
        const op: Json = {
          operationId: uniqueId(operationIds, view.method, p),
          ...primary,
          parameters: (primary.parameters as Json[]).filter((param) => param.in !== 'path' || p.includes(`:${param.name}`)),
        };
        if (p !== endpoint.path) op.description = `Alias of ${view.method} ${endpoint.path}. ${endpoint.description}`;
        else if (view !== endpoint) op.description = `The same as POST ${endpoint.path}, with every parameter in the query. ${endpoint.description}`;
        item[method] = op;
      }
    }
  }
  if (!category) for (const [p, item] of Object.entries(builtinPaths(builtins, operationIds))) paths[p] = item;
  const categories = Object.entries(CATEGORY_NAMES).filter(([name]) => !category || name === category);

  return {
    openapi: '3.1.0',
    info: {
      title: category ? `Manifold API: ${CATEGORY_NAMES[category]}` : 'Manifold API',
      version: config.version,
      description:
        'Every endpoint takes one API key: the `X-API-Key` header, `Authorization: Bearer <key>`, the `apikey` query parameter, ' +
        'or an `apikey` field of a POST body. JSON answers use the envelope `{status, success, creator, result}`; errors use ' +
        '`{status, success: false, creator, error, message, details?}` with a stable `error` code.',
    },
    servers: [{ url: config.publicBaseUrl }],
    security: [{ apiKeyHeader: [] }, { bearer: [] }, { apiKeyQuery: [] }],
    tags: [
      ...categories.map(([name, description]) => ({ name, description })),
      ...(category ? [] : [{ name: 'system', description: 'Built-in routes: health, key management, hosted files, discovery, gallery, checkapikey' }]),
      ...[...extraTags]
        .filter((t) => !(t in CATEGORY_NAMES) && t !== 'system')
        .sort()
        .map((name) => ({ name })),
    ],
    paths,
    components: components(config),
  };
}

/** A POST endpoint as its GET form: no body, every body param in the query. */
function asGet(endpoint: Endpoint): Endpoint {
  const params = Object.fromEntries(
    Object.entries(endpoint.params).map(([name, spec]) => [name, spec.in === 'body' ? { ...spec, in: 'query' as const } : spec]),
  );
  return { ...endpoint, method: 'GET', body: [], params };
}

/** The operation for an endpoint's canonical path (aliases copy it). */
function operation(route: Route): Json {
  const { endpoint, unavailable } = route;
  const bodyParams = endpoint.body.length > 0 ? Object.entries(endpoint.params).filter(([, s]) => s.in === 'body' || s.in === 'file') : [];
  const inBody = new Set(bodyParams.map(([name]) => name));
  const examples = requestExamples(endpoint);

  const parameters: Json[] = [];
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (inBody.has(name) || spec.in === 'file') continue;
    const where = spec.in === 'path' ? 'path' : 'query';
    parameters.push({
      name,
      in: where,
      required: where === 'path' || spec.required,
      description: spec.aliases.length ? `${spec.description} Also accepted as: ${spec.aliases.join(', ')}.` : spec.description,
      schema: spec.schema,
      ...(spec.schema.type === 'array' ? { style: 'form', explode: false } : {}),
      ...(spec.aliases.length ? { 'x-aliases': spec.aliases } : {}),
      ...paramExamples(name, spec.example, examples),
    });
  }
  // read from the query or the body (documented in the query, where every client can send them)
  for (const [name, { schema, description }] of implicitParamsOf(endpoint)) parameters.push({ name, in: 'query', required: false, description, schema });
  parameters.push(ref('parameters', 'apikey'));

  const op: Json = {
    tags: [endpoint.category, ...endpoint.tags.filter((t) => t !== endpoint.category && !MARKER_TAGS.has(t))],
    ...(endpoint.tags.includes('long-running') || endpoint.async ? { 'x-long-running': true } : {}),
    summary: endpoint.summary,
    description: unavailable ? `${endpoint.description}\n\n**Unavailable on this server:** ${unavailable}.` : endpoint.description,
    parameters,
  };
  if (bodyParams.length) op.requestBody = requestBody(endpoint, bodyParams, examples);
  op.responses = responses(endpoint);
  if (endpoint.deprecated) op.deprecated = true;
  op['x-available'] = !unavailable;
  if (unavailable) op['x-unavailable-reason'] = unavailable;
  return op;
}

type ParamEntry = [string, Endpoint['params'][string]];

function requestBody(endpoint: Endpoint, params: ParamEntry[], examples: RequestExample[]): Json {
  const content: Json = {};
  for (const type of endpoint.body) {
    const properties: Json = {};
    const required: string[] = [];
    for (const [name, spec] of params) {
      if (spec.in === 'file' && type !== 'multipart') continue;
      properties[name] =
        spec.in === 'file' ? { type: 'string', format: 'binary', description: spec.description } : { ...spec.schema, description: spec.description };
      if (spec.required) required.push(name);
    }
    properties[API_KEY_PARAM] = { ...IMPLICIT_PARAMS[API_KEY_PARAM].schema, description: 'API key (or send it in a header).' };
    const named = examples
      .map(
        ({ key, summary, params: values }) =>
          [key, { summary, value: Object.fromEntries(Object.entries(values).filter(([name]) => name in properties)) }] as const,
      )
      .filter(([, { value }]) => Object.keys(value).length > 0);
    content[MEDIA_TYPES[type]] = {
      schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
      ...(named.length ? { examples: Object.fromEntries(named) } : {}),
    };
  }
  return { required: params.some(([, s]) => s.required), content };
}

/** The envelope's further places for the result (resultAlso: `results`, `results.data`, `lyrics=lyrics`), as schema properties. */
function alsoProperty(endpoint: Endpoint): Json {
  const properties: Json = {};
  for (const { at, from } of endpoint.resultAlso ?? []) {
    const [first, ...rest] = at;
    const described = from.length
      ? { description: `The same value as \`result.${from.join('.')}\`, where clients of this genre read it` }
      : { description: 'The same value as `result`, where clients of this genre read it', ...(endpoint.resultSchema ?? {}) };
    properties[first] = rest.reduceRight<Json>((inner, key) => ({ type: 'object', properties: { [key]: inner } }), described);
  }
  return properties;
}

function responses(endpoint: Endpoint): Json {
  const binary = Object.fromEntries(binaryTypes(endpoint).map((t) => [t, { schema: { type: 'string', format: 'binary' } }]));
  const envelope = {
    'application/json': {
      schema: { allOf: [ref('schemas', 'Success'), { type: 'object', properties: { result: endpoint.resultSchema ?? {}, ...alsoProperty(endpoint) } }] },
    },
  };
  const ok: Json = {
    description:
      endpoint.response === 'binary'
        ? 'The file itself'
        : endpoint.response === 'streamable'
          ? 'The success envelope; with stream=true, the file itself'
          : 'The success envelope',
    headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...rateLimitHeaders() },
    content: endpoint.response === 'binary' ? binary : endpoint.response === 'streamable' ? { ...envelope, ...binary } : envelope,
  };
  const statuses = new Set(COMMON_ERRORS);
  // a key's own rules (allowed endpoints and addresses) refuse with 403
  if (!endpoint.public) statuses.add(403);
  if (endpoint.body.length) [413, 415].forEach((s) => statuses.add(s));
  if (endpoint.path.includes(':') || endpoint.examples.some((e) => e.expect.status === 404)) statuses.add(404);
  const out: Json = { 200: ok, ...(endpoint.async && { 202: accepted() }) };
  for (const status of [...statuses].sort((a, b) => a - b)) out[status] = ref('responses', String(status));
  return out;
}

/** A long-running endpoint's answer to async=true (engine/pipeline/jobs): the job to poll at /api/jobs/{id}. */
function accepted(): Json {
  const job = {
    type: 'object',
    required: ['job_id', 'status', 'status_url'],
    properties: { job_id: { type: 'string' }, status: { const: 'queued' }, status_url: { type: 'string', format: 'uri' } },
  };
  return {
    description:
      'With async=true: the call became a job; GET its status_url (/api/jobs/{id}) for its progress and, once completed, the result this endpoint answers',
    headers: { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...rateLimitHeaders() },
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['status', 'success', 'creator', 'result'],
          properties: { status: { type: 'integer', const: 202 }, success: { type: 'boolean', const: true }, creator: { type: 'string' }, result: job },
        },
      },
    },
  };
}

/** Content types a binary answer may have, from the examples' expectations (`image/` → `image/*`). */
function binaryTypes(endpoint: Endpoint): string[] {
  const types = new Set<string>();
  for (const e of endpoint.examples) {
    const t = e.expect.contentType;
    if (t) types.add(t.endsWith('/') ? `${t}*` : t.includes('/') ? t : `${t}/*`);
  }
  return types.size ? [...types] : ['application/octet-stream'];
}

/** A manifest example that succeeds, with its params under their canonical names. */
interface RequestExample {
  key: string;
  summary: string;
  params: Record<string, unknown>;
}

/** The success examples as request examples (manifests may name a param by an alias, as clients do). */
function requestExamples(endpoint: Endpoint): RequestExample[] {
  const canonicalName = (sent: string) => Object.entries(endpoint.params).find(([n, s]) => n === sent || s.aliases.includes(sent))?.[0] ?? sent;
  return (
    endpoint.examples
      // `${fixtures}/<file>` URLs exist only in the conformance harness: no use to a reader of the docs
      .filter((e) => (e.expect.status ?? 200) === 200 && !e.expect.error && !JSON.stringify(e.params).includes('${fixtures}'))
      .map((e, i) => ({
        key: (e.name ?? '').replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || `example-${i + 1}`,
        summary: e.name ?? `example ${i + 1}`,
        params: Object.fromEntries(Object.entries(e.params).map(([sent, value]) => [canonicalName(sent), value])),
      }))
  );
}

/** `example` when there is one value, `examples` when the manifest's examples give several. */
function paramExamples(name: string, declared: unknown, examples: RequestExample[]): Json {
  const values = new Map<string, { summary: string; value: unknown }>();
  if (declared !== undefined) values.set(JSON.stringify(declared), { summary: 'example', value: declared });
  for (const example of examples) {
    const value = example.params[name];
    if (value !== undefined && !values.has(JSON.stringify(value))) values.set(JSON.stringify(value), { summary: example.summary, value });
  }
  if (values.size === 0) return {};
  const list = [...values.values()];
  if (list.length === 1) return { example: list[0].value };
  return { examples: Object.fromEntries(list.map((v, i) => [`${i + 1}`, v])) };
}

/** `/api/x/:id` → `/api/x/{id}`. */
const openApiPath = (p: string) => p.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');

/** camelCase of method and path (`getApiFunQuote`), suffixed when two paths fold to one id. */
function uniqueId(taken: Set<string>, method: string, p: string): string {
  const words = [method.toLowerCase(), ...p.split(/[^A-Za-z0-9]+/).filter(Boolean)];
  const base = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
  taken.add(id);
  return id;
}

const rateLimitHeaders = () => ({
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
});

/** The two built-in routes clients use (GET /openapi.json and /docs serve this document itself). */
/** The built-in routes' operations, from the same table the dispatcher serves (pipeline/builtin.ts). */
function builtinPaths(builtins: readonly Builtin[], operationIds: Set<string>): Record<string, Record<string, Json>> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of builtins) {
    if (route.hidden) continue;
    for (const p of [route.path, ...route.aliases]) {
      const pathParams = [...p.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
      const ok: Json = { description: route.summary };
      if (route.result)
        ok.content = { 'application/json': { schema: { allOf: [ref('schemas', 'Success'), { type: 'object', properties: { result: route.result } }] } } };
      if (route.auth === 'key') ok.headers = { 'X-Request-Id': ref('headers', 'X-Request-Id'), ...rateLimitHeaders() };
      const op: Json = {
        tags: ['system'],
        operationId: uniqueId(operationIds, route.method, p),
        summary: route.summary,
        ...(p !== route.path ? { description: `Alias of ${route.method} ${route.path}.` } : {}),
        // auth none: no key; admin: the ADMIN_TOKEN bearer; key: the document's default (any way of sending a key)
        ...(route.auth === 'none' ? { security: [] } : route.auth === 'admin' ? { security: [{ adminToken: [] }] } : {}),
        parameters: [
          ...pathParams,
          ...Object.entries(route.query ?? {}).map(([name, { description, schema }]) => ({ name, in: 'query', required: false, description, schema })),
          ...(route.auth === 'key' ? [ref('parameters', 'apikey')] : []),
        ],
        ...(route.jsonBody !== undefined ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object' } } } } } : {}),
        responses: {
          200: ok,
          ...(route.auth === 'key' ? { 401: ref('responses', '401'), 403: ref('responses', '403'), 429: ref('responses', '429') } : {}),
          ...(route.query ? { 400: ref('responses', '400') } : {}),
          ...(route.auth === 'admin' ? { 403: ref('responses', '403') } : {}),
          ...Object.fromEntries((route.errors ?? []).map((status) => [status, ref('responses', String(status))])),
        },
      };
      (paths[openApiPath(p)] ??= {})[route.method.toLowerCase()] = op;
    }
  }
  return paths;
}

function components(config: Config): Json {
  const header = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  const errorResponses = Object.fromEntries(
    [...ERRORS].map(([status, { codes, description }]) => [
      String(status),
      {
        description,
        headers: {
          'X-Request-Id': ref('headers', 'X-Request-Id'),
          ...(status === 429 ? { ...rateLimitHeaders(), 'Retry-After': ref('headers', 'Retry-After') } : {}),
          ...(status === 503 ? { 'Retry-After': ref('headers', 'Retry-After') } : {}),
        },
        content: {
          'application/json': {
            schema: { allOf: [ref('schemas', 'Error'), { type: 'object', properties: { status: { const: status }, error: { enum: codes } } }] },
            example: { status, success: false, creator: config.creator, error: codes[0], message: ERROR_CODES[codes[0]].meaning },
          },
        },
      },
    ]),
  );
  return {
    securitySchemes: {
      apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
      adminToken: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <ADMIN_TOKEN> (admin routes only)' },
      apiKeyQuery: { type: 'apiKey', in: 'query', name: API_KEY_PARAM },
    },
    parameters: {
      apikey: {
        name: API_KEY_PARAM,
        in: 'query',
        required: false,
        description: IMPLICIT_PARAMS[API_KEY_PARAM].description,
        schema: IMPLICIT_PARAMS[API_KEY_PARAM].schema,
      },
    },
    headers: {
      'X-Request-Id': { description: 'Request id, echoed from the request when it sent one', schema: { type: 'string' } },
      'RateLimit-Limit': header("Requests allowed per window for the key's tier"),
      'RateLimit-Remaining': header('Requests left in the current window'),
      'RateLimit-Reset': header('Seconds until the window resets'),
      'Retry-After': header('Seconds to wait before retrying'),
    },
    schemas: {
      Success: {
        type: 'object',
        required: ['status', 'success', 'creator', 'result'],
        properties: {
          status: { type: 'integer', const: 200 },
          success: { type: 'boolean', const: true },
          creator: { type: 'string', example: config.creator },
          result: { description: "The endpoint's data" },
        },
      },
      Error: {
        type: 'object',
        required: ['status', 'success', 'creator', 'error', 'message'],
        properties: {
          status: { type: 'integer', minimum: 400, maximum: 599 },
          success: { type: 'boolean', const: false },
          creator: { type: 'string', example: config.creator },
          error: { type: 'string', enum: [...ERRORS.values()].flatMap((e) => e.codes) },
          message: { type: 'string', description: 'One human sentence' },
          details: {
            type: 'array',
            items: { type: 'object', required: ['problem'], properties: { param: { type: 'string' }, problem: { type: 'string' } } },
          },
        },
      },
    },
    responses: errorResponses,
  };
}

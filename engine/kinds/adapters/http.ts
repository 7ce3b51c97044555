import { createRequire } from 'node:module';
import type * as He from 'he';
import { compileMapping, EXPRESSION_SCHEMA, fillTemplate, type Expression, type Mapping, type TemplateScope } from '../../core/mapping.js';
import { invalidParameter, notFound, upstreamError } from '../../core/errors.js';
import { parseFeed } from './http-feed.js';
import { json, type AdapterKind, type AdapterSetup, type Call } from '../../contract/call.js';
import { placeholderNames, PLACEHOLDER_SYNTAX } from '../../core/placeholders.js';

/**
 * Upstream JSON APIs (and RSS/Atom feeds) described entirely in the manifest: a request
 * template and a JMESPath mapping per provider. The first provider whose upstream is
 * configured serves the endpoint (e.g. Google Programmable Search when its keys are
 * set, else a self-hosted SearXNG).
 *
 * Optional, all off by default: `captures` pulls named parts out of a param (owner and
 * repo from a GitHub URL); a provider's `lookup` makes a first request whose mapped
 * fields feed the second one's template (geocode a place, then ask for its weather);
 * `valid` rejects payloads of the wrong shape (502); `notFound` turns an upstream 404
 * or an empty mapping into 404 `not_found` for single-item endpoints. Every mapping sees
 * the call's params (with captures) as the variable `$params`, so a lookup can pick the
 * entry that matches what the client asked for (a hearthis.at set by its address).
 */
interface Request {
  upstream: string;
  method?: 'GET' | 'POST';
  /** Appended to the base URL; `${params.x}` values are URL-encoded here. */
  path: string;
  query?: Record<string, unknown>;
  /** Query names sent bare, without `=` (`?safe-mode`): JokeAPI reads `safe-mode=` as off. */
  flags?: string[];
  json?: Record<string, unknown>;
  /** A URL-encoded form body (POST), for APIs that read only forms (cleanuri). */
  form?: Record<string, unknown>;
  /**
   * `json` (default); `feed`: RSS/Atom parsed to {title, link, description, items[]};
   * `text`: the body as one trimmed string, for APIs that answer plain text (vurl, AdFoc.us).
   */
  format?: 'json' | 'feed' | 'text';
  /** JMESPath (or a named mapping) from the upstream's answer to the result (or to the lookup's fields). */
  result: Expression;
  /** JMESPath that must be truthy on the upstream's answer; otherwise 502. */
  valid?: Expression;
  /** Message of the 404 given when the upstream says 404 or the mapping yields nothing. */
  notFound?: string;
  /** Other upstream statuses that mean "nothing matches" (with `notFound`): JokeAPI answers 400 when no joke passes the filters. */
  notFoundStatuses?: number[];
  /** `html`: decode HTML entities in every string of the result (Open Trivia DB sends `&quot;`…). */
  decode?: 'html';
}

interface Provider extends Request {
  /** A first request; the fields of its mapped object become template params of this one. */
  lookup?: Request;
  /**
   * Run once per value (with `params[param]` set to it), or once for the caller's own
   * `param`, and combine the list of results with the JMESPath `merge` (default: the list
   * itself), e.g. live scores over several leagues. Values that fail are left out; when
   * all fail, the first failure is the answer.
   */
  each?: { param: string; values: (string | number)[]; merge?: Expression };
}

interface HttpConfig {
  providers: Provider[];
  /** Param name -> regular expression with named groups; the groups become template params. */
  captures?: Record<string, string>;
}

const requestProperties = {
  upstream: { type: 'string' },
  method: { enum: ['GET', 'POST'] },
  path: { type: 'string', description: 'appended to the upstream base URL; ${params.x} (URL-encoded) and ${env.X} are filled in' },
  query: { type: 'object' },
  flags: { type: 'array', items: { type: 'string', minLength: 1 }, description: "query names sent bare, without `=` (e.g. JokeAPI's safe-mode)" },
  json: { type: 'object' },
  form: { type: 'object', description: 'URL-encoded form body; ${params.x} and ${env.X} are filled in' },
  format: { enum: ['json', 'feed', 'text'], description: 'how to read the answer: JSON, an RSS/Atom feed, or plain text (one trimmed string)' },
  result: EXPRESSION_SCHEMA,
  valid: EXPRESSION_SCHEMA,
  notFound: { type: 'string', description: '404 message when the upstream answers 404 or the result is empty' },
  notFoundStatuses: {
    type: 'array',
    items: { type: 'integer', minimum: 400, maximum: 499 },
    description: 'other upstream statuses that mean nothing matches (with notFound)',
  },
  decode: { enum: ['html'], description: 'decode HTML entities in every string of the result' },
};
const requestSchema = { type: 'object', additionalProperties: false, required: ['upstream', 'path', 'result'], properties: requestProperties };
const eachSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['param', 'values'],
  description: "run once per value (or for the caller's own param) and merge the list of results with JMESPath",
  properties: { param: { type: 'string' }, values: { type: 'array', minItems: 1, items: { type: ['string', 'number'] } }, merge: EXPRESSION_SCHEMA },
};
const providerSchema = { ...requestSchema, properties: { ...requestProperties, lookup: requestSchema, each: eachSchema } };

const require = createRequire(import.meta.url);
let he: typeof He | undefined;

/** For the few endpoints with `decode: html`; he loads with the first of them, not at boot. */
function decodeEntities(value: unknown): unknown {
  he ??= require('he') as typeof He;
  if (typeof value === 'string') return he.decode(value);
  if (Array.isArray(value)) return value.map(decodeEntities);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeEntities(v)]));
  return value;
}

/** A request compiled once at boot. */
interface Compiled {
  spec: Request;
  toResult: Mapping;
  isValid?: Mapping;
  /** The params its path names (`${params.x}`): only these are URL-encoded for it. */
  pathParams: string[];
}

const compileRequest = (spec: Request): Compiled => ({
  spec,
  toResult: compileMapping(spec.result),
  isValid: spec.valid ? compileMapping(spec.valid) : undefined,
  pathParams: placeholderNames(spec.path, PLACEHOLDER_SYNTAX.call)
    .filter((name) => name.startsWith('params.'))
    .map((name) => name.slice('params.'.length)),
});

const upstreamsOf = (p: Provider) => [p.upstream, ...(p.lookup ? [p.lookup.upstream] : [])];

function pick(config: HttpConfig, setup: AdapterSetup): Provider | undefined {
  return config.providers.find((p) => upstreamsOf(p).every((u) => !setup.upstreams.unavailable(u)));
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The values of `names` URL-encoded, for a path template. */
function encoded(params: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = params[name] === undefined ? undefined : encodeURIComponent(String(params[name]));
  return out;
}

/** Named groups of each capture pattern, matched against its param; a mismatch is the client's error. */
function capture(patterns: Map<string, RegExp>, params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [param, pattern] of patterns) {
    if (params[param] === undefined) continue;
    const match = pattern.exec(String(params[param]));
    if (!match) throw invalidParameter(param, 'not in the expected form');
    Object.assign(out, match.groups);
  }
  return out;
}

export const http: AdapterKind<HttpConfig> = {
  kind: 'http',
  cost: 'io',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['providers'],
    properties: {
      providers: { type: 'array', minItems: 1, items: providerSchema },
      captures: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  unavailable(config, setup) {
    if (pick(config, setup)) return undefined;
    return config.providers
      .flatMap(upstreamsOf)
      .map((u) => setup.upstreams.unavailable(u))
      .filter(Boolean)
      .join('; ');
  },
  create(config, setup) {
    const provider = pick(config, setup)!;
    const main = compileRequest(provider);
    const lookup = provider.lookup && compileRequest(provider.lookup);
    const patterns = new Map(Object.entries(config.captures ?? {}).map(([param, source]) => [param, new RegExp(source)]));

    async function fetchMapped(request: Compiled, scope: TemplateScope, call: Call): Promise<unknown> {
      const { spec } = request;
      const options = {
        method: spec.method ?? 'GET',
        path: String(
          request.pathParams.length ? fillTemplate(spec.path, { ...scope, params: encoded(scope.params, request.pathParams) }) : fillTemplate(spec.path, scope),
        ),
        query: fillTemplate(spec.query ?? {}, scope) as Record<string, string>,
        flags: spec.flags,
        json: spec.json && (fillTemplate(spec.json, scope) as Record<string, unknown>),
        form: spec.form && (fillTemplate(spec.form, scope) as Record<string, string>),
        limitMs: setup.endpoint.limits.timeoutMs,
        signal: call.signal,
        notFound: spec.notFound,
        notFoundStatuses: spec.notFoundStatuses,
      };
      let data: unknown;
      if (spec.format === 'feed') data = await parseFeed(spec.upstream, await setup.upstreams.text(spec.upstream, options));
      else if (spec.format === 'text') data = (await setup.upstreams.text(spec.upstream, options)).trim();
      else data = await setup.upstreams.call(spec.upstream, options);
      if (request.isValid && !request.isValid(data)) throw upstreamError(spec.upstream, 'unexpected response shape');
      return data;
    }

    function mapped(request: Compiled, data: unknown, params: Record<string, unknown>): unknown {
      let result: unknown;
      try {
        result = request.toResult(data, { params });
      } catch (error) {
        // A mapping that fails on the answer (a function given null, say) means the answer is unusable.
        throw upstreamError(request.spec.upstream, 'unexpected response shape', error);
      }
      if (request.spec.notFound && isEmpty(result)) throw notFound(request.spec.notFound);
      if (result === null || result === undefined) throw upstreamError(request.spec.upstream, 'unexpected response shape');
      return request.spec.decode === 'html' ? decodeEntities(result) : result;
    }

    async function run(call: Call, callParams: Record<string, unknown>): Promise<unknown> {
      // the captures' groups join the params; without captures, the call's params as they are
      const params = patterns.size > 0 ? { ...callParams, ...capture(patterns, callParams) } : callParams;
      const scope = { params, env: setup.config.env };
      if (!lookup) return mapped(main, await fetchMapped(main, scope, call), params);
      const found = mapped(lookup, await fetchMapped(lookup, scope, call), params);
      if (typeof found !== 'object' || Array.isArray(found)) throw upstreamError(lookup.spec.upstream, 'unexpected response shape');
      const response = await fetchMapped(main, { ...scope, params: { ...params, ...found } }, call);
      return mapped(main, { lookup: found, response }, params);
    }

    const each = provider.each;
    const merge = compileMapping(each?.merge);
    return async (call) => {
      if (!each) return json(await run(call, call.params));
      const given = call.params[each.param];
      const values = given === undefined ? each.values : [given];
      const settled = await Promise.allSettled(values.map((value) => run(call, { ...call.params, [each.param]: value })));
      const results = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      if (results.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
      return json(merge(results));
    };
  },
};

import he from 'he';
import { compileMapping, fillTemplate, type Mapping } from '../mapping.js';
import { upstreamError } from '../errors.js';
import type { AdapterKind, AdapterSetup } from './types.js';

/**
 * Upstream JSON APIs described entirely in the manifest: a request template and a
 * JMESPath mapping per provider. The first provider whose upstream is configured
 * serves the endpoint (e.g. Google Programmable Search when its keys are set,
 * else a self-hosted SearXNG).
 */
interface Provider {
  upstream: string;
  method?: 'GET' | 'POST';
  path: string;
  query?: Record<string, unknown>;
  json?: Record<string, unknown>;
  /** JMESPath from the upstream's JSON to `result`. */
  result: string;
  /** `html`: decode HTML entities in every string of the result (Open Trivia DB sends `&quot;`…). */
  decode?: 'html';
  /**
   * When the caller leaves `param` unset, ask once per value (with `params[param]` set to it)
   * and combine the mapped answers with the JMESPath `merge` (default: the list of answers).
   * Values that fail are left out; when all fail, the first failure is the answer.
   */
  each?: { param: string; values: (string | number)[]; merge?: string };
}

interface HttpConfig {
  providers: Provider[];
}

const providerSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['upstream', 'path', 'result'],
  properties: {
    upstream: { type: 'string' },
    method: { enum: ['GET', 'POST'] },
    path: { type: 'string', description: 'appended to the upstream base URL; ${params.x} and ${env.X} are filled in' },
    query: { type: 'object' },
    json: { type: 'object' },
    result: { type: 'string', description: 'JMESPath from the upstream JSON to result' },
    decode: { enum: ['html'], description: 'decode HTML entities in every string of the result' },
    each: {
      type: 'object',
      additionalProperties: false,
      required: ['param', 'values'],
      description: 'fan out over values when the caller leaves param unset; merge is JMESPath over the list of mapped answers',
      properties: {
        param: { type: 'string' },
        values: { type: 'array', minItems: 1, items: { type: ['string', 'number'] } },
        merge: { type: 'string' },
      },
    },
  },
};

function decodeEntities(value: unknown): unknown {
  if (typeof value === 'string') return he.decode(value);
  if (Array.isArray(value)) return value.map(decodeEntities);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeEntities(v)]));
  return value;
}

function pick(config: HttpConfig, setup: AdapterSetup): Provider | undefined {
  return config.providers.find((p) => setup.upstreams.has(p.upstream) && !setup.upstreams.get(p.upstream).missing);
}

export const http: AdapterKind<HttpConfig> = {
  kind: 'http',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['providers'],
    properties: { providers: { type: 'array', minItems: 1, items: providerSchema } },
  },
  unavailable(config, setup) {
    if (pick(config, setup)) return undefined;
    return config.providers
      .map((p) => (setup.upstreams.has(p.upstream) ? `${p.upstream}: ${setup.upstreams.get(p.upstream).missing}` : `unknown upstream ${p.upstream}`))
      .join('; ');
  },
  create(config, setup) {
    const provider = pick(config, setup)!;
    const upstream = setup.upstreams.get(provider.upstream);
    const toResult = compileMapping(provider.result);
    const timeoutMs = Math.min(setup.endpoint.limits.timeoutMs, upstream.spec.timeoutMs ?? Infinity);
    const ask = async (params: Record<string, unknown>, signal: AbortSignal) => {
      const scope = { params, env: setup.config.env };
      const data = await setup.http.upstreamJson({
        upstream: provider.upstream,
        method: provider.method ?? 'GET',
        url: upstream.baseUrl + String(fillTemplate(provider.path, scope)),
        searchParams: { ...upstream.query, ...(fillTemplate(provider.query ?? {}, scope) as Record<string, string>) },
        json: provider.json && (fillTemplate(provider.json, scope) as Record<string, unknown>),
        headers: upstream.headers,
        timeoutMs,
        signal,
      });
      const result = toResult(data);
      if (result === null || result === undefined) throw upstreamError(provider.upstream, 'unexpected response shape');
      return provider.decode === 'html' ? decodeEntities(result) : result;
    };
    const each = provider.each;
    const merge: Mapping = compileMapping(each?.merge);
    return async ({ params, signal }) => {
      if (!each || params[each.param] !== undefined) return { type: 'json', result: await ask(params, signal) };
      const settled = await Promise.allSettled(each.values.map((value) => ask({ ...params, [each.param]: value }, signal)));
      const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
      if (answers.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
      return { type: 'json', result: merge(answers) };
    };
  },
};

import { compileMapping, fillTemplate } from '../mapping.js';
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
  },
};

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
    return async ({ params, signal }) => {
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
      return { type: 'json', result };
    };
  },
};

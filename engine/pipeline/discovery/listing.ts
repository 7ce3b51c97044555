import type { EndpointRegistry } from '../endpoint-registry.js';
import type { Builtin } from '../builtin.js';

/** GET /api/admin/endpoints: every route from the manifests, with availability and why, then the built-in routes. */
export function listing(registry: EndpointRegistry, builtins: readonly Builtin[] = []) {
  const endpoints = registry.routes.map(({ endpoint, unavailable }) => ({
    method: endpoint.method,
    ...(endpoint.alsoGet ? { alsoGet: true } : {}),
    path: endpoint.path,
    aliases: endpoint.aliases,
    category: endpoint.category,
    summary: endpoint.summary,
    adapter: endpoint.adapter.kind,
    response: endpoint.response,
    // which endpoints take async=true (and callback_url): elsewhere async=true is ignored and the answer is synchronous
    ...(endpoint.async ? { async: true } : {}),
    // where else the envelope carries the result, and what a call through /as/<host> gets unasked (docs/using/drop-in-parity.md)
    ...(endpoint.resultAlso
      ? { resultAlso: endpoint.resultAlso.map(({ at, from }) => (from.length ? `${at.join('.')}=${from.join('.')}` : at.join('.'))) }
      : {}),
    ...(endpoint.dialects ? { dialects: endpoint.dialects } : {}),
    params: Object.entries(endpoint.params).map(([name, spec]) => ({
      name,
      in: spec.in,
      required: spec.required,
      aliases: spec.aliases,
      schema: spec.schema,
      description: spec.description,
    })),
    available: !unavailable,
    ...(unavailable ? { unavailableReason: unavailable } : {}),
  }));
  const byCategory: Record<string, number> = {};
  for (const e of endpoints) byCategory[e.category] = (byCategory[e.category] ?? 0) + 1;
  return {
    total: endpoints.length,
    available: endpoints.filter((e) => e.available).length,
    byCategory,
    endpoints,
    builtins: builtins.filter((b) => !b.hidden).map((b) => ({ method: b.method, path: b.path, aliases: b.aliases, auth: b.auth, summary: b.summary })),
  };
}

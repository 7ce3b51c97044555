import type { Middleware } from 'koa';
import { ApiError } from '../core/errors.js';
import { notFoundFor } from './discovery/not-served.js';
import { EndpointRouter, type RouteMatch } from '../catalog/router.js';
import { runBuiltin, type Builtin, type BuiltinDeps } from './builtin.js';
import { endpointRunner, type EndpointDeps } from './endpoint.js';
import type { RequestLabels } from '../platform/metrics/metrics.js';
import type { Endpoint } from '../core/manifest-types.js';
import { getRefusal } from '../catalog/get-refusal.js';

/**
 * The one dispatcher: every request, manifest endpoint or built-in route, is looked up
 * here (the registry's router first: it serves the traffic), answered 404 or 405 here
 * and nowhere else, then run through the same steps (pipeline/endpoint.ts, builtin.ts).
 */
export function dispatch(deps: EndpointDeps & BuiltinDeps & { builtins: readonly Builtin[]; endpoints?: boolean }): Middleware {
  const runEndpoint = endpointRunner(deps);
  const builtins = new EndpointRouter<Builtin>(deps.builtins);
  // one labels object per route, made on its first request: the metrics count by it on every one
  const labels = new Map<object, RequestLabels>();
  const labelsOf = (route: object, category: string, path: string): RequestLabels => {
    let made = labels.get(route);
    if (!made) labels.set(route, (made = Object.freeze({ category, endpoint: path })));
    return made;
  };
  return (ctx) => {
    // endpoints: false on a `worker` instance, which serves only its built-ins
    const found = deps.endpoints === false ? undefined : deps.registry.router.match(ctx.method, ctx.path);
    if (found && 'endpoint' in found) {
      ctx.state.metricLabels = labelsOf(found.endpoint, found.endpoint.category, found.endpoint.path);
      return runEndpoint(ctx, found.endpoint, found.pathParams);
    }
    const own = builtins.match(ctx.method, ctx.path);
    if (own && 'endpoint' in own) {
      ctx.state.metricLabels = labelsOf(own.endpoint, 'builtin', own.endpoint.path);
      return runBuiltin(ctx, own.endpoint, own.pathParams, deps);
    }
    const allowed = [...new Set([...allowedBy(found), ...allowedBy(own)])];
    if (allowed.length) {
      const why =
        allowed.includes('POST') && (ctx.method === 'GET' || ctx.method === 'HEAD') ? postOnlyReason(deps.registry.router.match('POST', ctx.path)) : '';
      throw new ApiError('method_not_allowed', `Use ${allowed.join(' or ')} for this path${why}`, { headers: { Allow: allowed.join(', ') } });
    }
    throw notFoundFor(ctx.path);
  };
}

const allowedBy = (match: { allowed: string[] } | object | undefined): string[] => (match && 'allowed' in match ? match.allowed : []);

/**
 * Why a POST endpoint refuses GET, when it is one of the two exceptions to "GET works
 * everywhere" (docs/using/contract.md): clients of this genre call every path with GET and would otherwise
 * take the 405 for a bug.
 */
function postOnlyReason(match: RouteMatch<Endpoint> | undefined): string {
  const refusal = match && 'endpoint' in match ? getRefusal(match.endpoint.params) : undefined;
  return refusal ? ` (${refusal})` : '';
}

import type { Context, Middleware } from 'koa';
import type { Config } from '../config.js';
import type { Registry, Route } from '../registry.js';
import type { Output } from '../adapters/types.js';
import { ApiError, unavailable } from '../errors.js';
import { authenticate, type AuthDeps, type Principal } from '../auth/authenticate.js';
import { enforceRateLimit } from '../limits/enforce-rate-limit.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { ResultCache } from '../cache.js';
import { canonical, collectParams, validateParams } from '../params.js';
import { BodyParsers, removeUploads, uploadedFiles } from './body.js';
import { Gate } from './concurrency.js';
import { respond } from './respond.js';

export interface EndpointDeps {
  config: Config;
  registry: Registry;
  auth: AuthDeps;
  limiter: RateLimiter;
  cache: ResultCache;
  tempDir: string;
}

/**
 * Serves every manifest endpoint with one middleware (no per-endpoint middleware):
 * route lookup → body → key → rate limit → params → availability → adapter.
 * Requests for other paths fall through to the built-in router.
 */
export function endpointDispatch(deps: EndpointDeps): Middleware {
  const bodies = new BodyParsers(deps.config, deps.tempDir);
  const gates = new Map<string, Gate>();
  const gateFor = (route: Route) => {
    const { concurrency, queue } = route.endpoint.limits;
    if (!concurrency) return undefined;
    let gate = gates.get(route.endpoint.id);
    if (!gate) gates.set(route.endpoint.id, (gate = new Gate(concurrency, queue ?? concurrency * 4)));
    return gate;
  };

  return async (ctx, next) => {
    const match = deps.registry.router.match(ctx.method, ctx.path);
    if (!match) return next();
    if ('allowed' in match) {
      throw new ApiError(405, 'method_not_allowed', `Use ${match.allowed.join(' or ')} for this path`, { headers: { Allow: match.allowed.join(', ') } });
    }
    const route = deps.registry.byId.get(match.endpoint.id)!;
    const { endpoint } = route;
    try {
      await bodies.parse(ctx, endpoint);
      ctx.state.secretParams = endpoint.secretParams;
      const principal = endpoint.public ? anonymous(ctx, deps.config) : authenticate(ctx, deps.auth);
      await enforceRateLimit(ctx, deps.limiter, principal);
      const body = (ctx.request.body ?? {}) as Record<string, unknown>;
      const raw = collectParams(endpoint, { query: ctx.query, body: { ...ctx.query, ...body }, path: match.pathParams });
      const params = validateParams(endpoint, raw);
      if (!route.handler) throw unavailable(route.unavailable!);
      const output = await execute(ctx, deps, route, params, gateFor(route));
      respond(ctx, deps.config, output);
    } finally {
      if (ctx.request.type === 'multipart/form-data') ctx.res.once('close', () => void removeUploads(ctx));
    }
  };
}

/** Public endpoints (no key) count against a budget per client address. */
const anonymous = (ctx: Context, config: Config): Principal => ({ keyId: `ip:${ctx.ip}`, tier: 'personal', rpm: config.personalKeyRpm });

/** Run the adapter under the endpoint's timeout, concurrency gate and cache; abort it if the client leaves. */
async function execute(ctx: Context, deps: EndpointDeps, route: Route, params: Record<string, unknown>, gate?: Gate): Promise<Output> {
  const { endpoint } = route;
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new ApiError(499, 'client_closed', 'The client closed the connection'));
  });
  const timeoutMs = endpoint.limits.timeoutMs;
  const timer = setTimeout(() => controller.abort(new ApiError(504, 'upstream_timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
  const call = {
    params,
    signal: controller.signal,
    baseUrl: deps.config.publicBaseUrl,
    requestId: ctx.state.requestId as string,
    files: uploadedFiles(ctx),
    client: { ip: ctx.ip, headers: ctx.headers },
  };
  const run = () => route.handler!(call);
  const gated = gate ? () => gate.run(run) : run;
  const cacheable = endpoint.limits.cacheTtl > 0 && (endpoint.response === 'json' || (endpoint.response === 'streamable' && !params.stream));
  const work = cacheable ? deps.cache.wrap(`${endpoint.id}?${canonical(params)}`, endpoint.limits.cacheTtl, gated) : gated();
  const aborted = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(controller.signal.reason);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    clearTimeout(timer);
    // the losing promise must not become an unhandled rejection
    work.catch(() => undefined);
    aborted.catch(() => undefined);
  }
}

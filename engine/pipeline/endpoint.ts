import type { Context } from 'koa';
import type { Config } from '../platform/config.js';
import type { EndpointRegistry, Route } from './endpoint-registry.js';
import type { Output } from '../contract/call.js';
import { unavailable } from '../core/errors.js';
import { authenticateKey, missingApiKey, missingApiKeyBeforeUpload, type AuthDeps, type Principal } from '../platform/auth/authenticate.js';
import { keyBeforeBody, keyInBody } from '../platform/auth/key-from-request.js';
import { admit, type AdmitDeps, type AdmitOptions } from './admit.js';
import type { Endpoint } from '../core/manifest-types.js';
import type { ResultCache } from '../platform/cache.js';
import { canonical, collectParams, validateParams } from '../catalog/params.js';
import { hasBody, removeUploads, type BodyParsers } from './body.js';
import { Gate } from './concurrency.js';
import { AdapterCall } from './adapter-call.js';
import { Deadlines, type DeadlineQueue } from './deadlines.js';
import { respond } from './respond.js';
import type { SuccessEnvelope } from './envelope.js';
import type { Jobs } from './jobs/service.js';
import { asJob } from './jobs/submit.js';

export interface EndpointDeps extends AdmitDeps {
  config: Config;
  /** The engine's success envelope, made once (createEngine). */
  envelope: SuccessEnvelope;
  registry: EndpointRegistry;
  auth: AuthDeps;
  cache: ResultCache;
  bodies: BodyParsers;
  /** Async jobs (engine/pipeline/jobs): long-running endpoints take async=true, and run on the workers from `api` instances. */
  jobs?: Jobs;
}

/** Serve one matched manifest endpoint. */
export type EndpointRunner = (ctx: Context, endpoint: Endpoint, pathParams: Record<string, string>) => Promise<void>;

/** What a route needs on every request, worked out on its first one. */
interface RoutePlan {
  gate: Gate | undefined;
  deadlines: DeadlineQueue;
  /** Params whose values the access log blanks. */
  secretParams: ReadonlySet<string>;
  /** How a request with its key in a header or the query is admitted (a public endpoint's caller is rate limited, never counted). */
  admission: AdmitOptions;
}

/**
 * Serves every manifest endpoint with one function (no per-endpoint middleware):
 * key → rate limit → body → params → availability → adapter. Only a request without
 * a header or query key has its body read first, to find the key in it.
 */
export function endpointRunner(deps: EndpointDeps): EndpointRunner {
  const { bodies } = deps;
  const deadlines = new Deadlines();
  const plans = new Map<Route, RoutePlan>();
  const planFor = (route: Route): RoutePlan => {
    let plan = plans.get(route);
    if (!plan) {
      const { concurrency, queue, timeoutMs } = route.endpoint.limits;
      plan = {
        gate: concurrency ? new Gate(concurrency, queue ?? concurrency * 4) : undefined,
        deadlines: deadlines.for(timeoutMs),
        secretParams: new Set(route.endpoint.secretParams),
        admission: { keyed: !route.endpoint.public, quota: true, endpoint: route.endpoint },
      };
      plans.set(route, plan);
    }
    return plan;
  };

  return async (ctx, matched, pathParams) => {
    const route = deps.registry.byId.get(matched.id)!;
    const { endpoint } = route;
    const plan = planFor(route);
    ctx.state.secretParams = plan.secretParams;
    let parsing: Promise<void> | undefined;
    try {
      // keys before bodies: a key in a header or the query is checked, and counted, before a byte of the body is read
      const presented = endpoint.public ? undefined : keyBeforeBody(ctx);
      let principal = endpoint.public ? anonymous(ctx, deps.config) : presented !== undefined ? await authenticateKey(presented, deps.auth) : undefined;
      if (principal) {
        const admitted = admit(ctx, deps, principal, endpoint.id, plan.admission);
        if (admitted) await admitted;
        parsing = bodies.parse(ctx, endpoint);
        if (parsing) await parsing;
      } else {
        // no key yet: only a body can hold it. JSON and form bodies are small (BODY_MAX_BYTES);
        // a multipart upload is refused at its first file unless an apikey field came before it
        if (!hasBody(ctx)) throw missingApiKey();
        let early: Principal | undefined;
        parsing = bodies.parse(ctx, endpoint, async (fields) => {
          const key = keyInBody(fields);
          if (key === undefined) throw missingApiKeyBeforeUpload();
          early = await authenticateKey(key, deps.auth);
        });
        if (parsing) await parsing;
        principal = early ?? (await authenticateKey(keyInBody(ctx.request.body), deps.auth));
        const admitted = admit(ctx, deps, principal, endpoint.id, { quota: true, endpoint });
        if (admitted) await admitted;
      }
      // Koa parses the query string into a new object (and a cache object) per request: most calls have none
      const query = ctx.querystring ? (ctx.query as Record<string, unknown>) : NO_QUERY;
      const body = (ctx.request.body ?? query) as Record<string, unknown>;
      const collected = collectParams(endpoint, { query, body, path: pathParams });
      // called as one of the genre's hosts (/as/<host>): that host's shape, where the call does not ask for another
      const dialect = ctx.state.dialect && endpoint.dialects?.[ctx.state.dialect as string];
      if (dialect) for (const [name, value] of Object.entries(dialect)) if (!(name in collected)) collected[name] = value;
      let params = validateParams(endpoint, collected);
      if (endpoint.async && deps.jobs) {
        // async=true, or a worker's work on an `api` instance: answered by the job, not run here
        const job = asJob(ctx, deps.jobs, endpoint, principal, params);
        if ('answer' in job) {
          const output = await job.answer;
          const sending = output && respond(ctx, deps.envelope, output, endpoint.resultAlso);
          if (sending) await sending;
          return;
        }
        params = job.params;
      }
      if (!route.handler) throw unavailable(route.unavailable!);
      const call = new AdapterCall(params, principal, deps.config.publicBaseUrl, ctx.state.requestId as string, ctx);
      const sending = respond(ctx, deps.envelope, await call.run(work(deps, route, plan, call), plan.deadlines), endpoint.resultAlso);
      if (sending) await sending;
    } finally {
      if (parsing && ctx.state.uploads) ctx.res.once('close', () => void removeUploads(ctx));
    }
  };
}

/** The query of a request without a query string: shared, so frozen (params are collected into a new object); no prototype, as Koa's parsed query has none. */
const NO_QUERY: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

/** Public endpoints (no key) count against a budget per client address. */
const anonymous = (ctx: Context, config: Config): Principal => ({ keyId: `ip:${ctx.ip}`, tier: 'personal', rpm: config.personalKeyRpm });

/** The adapter's work for one call, through the endpoint's concurrency gate and result cache when it has them. */
function work(deps: EndpointDeps, route: Route, plan: RoutePlan, call: AdapterCall): Promise<Output> {
  const { endpoint } = route;
  const handler = route.handler!;
  const cacheable = endpoint.limits.cacheTtl > 0 && (endpoint.response === 'json' || (endpoint.response === 'streamable' && !call.params.stream));
  const { gate } = plan;
  if (!gate && !cacheable) return handler(call);
  const gated = gate ? () => gate.run(() => handler(call)) : () => handler(call);
  return cacheable ? deps.cache.wrap(`${endpoint.id}?${canonical(call.params)}`, endpoint.limits.cacheTtl, gated) : gated();
}

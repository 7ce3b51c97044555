import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Config } from '../platform/config.js';
import { failure, toApiError } from './envelope.js';
import { keyFromRequest } from '../platform/auth/key-from-request.js';
import { redactText, redactUrl } from '../platform/auth/redact.js';
import type { Logger } from '../platform/log.js';
import { rootCause } from '../platform/db/unavailable.js';
import { hasBody } from './body.js';
import { UNMATCHED, type EngineMetrics, type RequestLabels } from '../platform/metrics/metrics.js';
import { clientIpResolver } from '../platform/http/client-ip.js';
import type { Principal } from '../platform/auth/authenticate.js';
import type { UsageCounter } from '../platform/db/usage.js';
import { meterAnswer } from './usage-meter.js';
import type { RequestSpan, RequestTracing } from '../platform/tracing/tracing.js';

/** While the database is down every request fails alike: one warning per interval, not one per request. */
const DATABASE_LOG_INTERVAL_MS = 10_000;

/** A warning with the cause's message (never its stack, nor the connection string: pg's messages carry neither) at most once per interval. */
function outageLog(intervalMs: number) {
  let last = -Infinity;
  let missed = 0;
  return (log: Logger, requestId: string, cause: unknown) => {
    const now = performance.now();
    if (now - last < intervalMs) return void missed++;
    last = now;
    log.error({
      requestId,
      msg: 'database unreachable: answering 503 database_unavailable',
      cause: rootCause(cause),
      since_last_warning: missed,
    });
    missed = 0;
  };
}

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const EXPOSED_HEADERS = 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';
/** A User-Agent is logged up to this length: enough to tell bots and libraries apart, never a flood. */
const USER_AGENT_MAX = 256;

/**
 * Outermost middleware: the request id, the client's address (TRUST_PROXY: http/client-ip.ts,
 * set as `ctx.ip` for everything further in), the one access-log line (with secrets
 * redacted: client address, key id and user agent, never the key), the request's count
 * in the metrics (the status is final here), its span when tracing is on, CORS, and the
 * error envelope for anything thrown further in. Nothing thrown escapes as a
 * non-envelope body and no stack reaches the client.
 */
export function requestContext(
  config: Config,
  log: Logger,
  metrics?: EngineMetrics,
  tracing?: Promise<RequestTracing | undefined>,
  usage?: UsageCounter,
): Middleware {
  const databaseDown = outageLog(DATABASE_LOG_INTERVAL_MS);
  const clientIp = clientIpResolver(config.trustProxy);
  return async (ctx, next) => {
    const started = performance.now();
    ctx.request.ip = clientIp(ctx.req);
    // the SDK loads in the background from boot: a request before it has waits for it (once, at start)
    const span: RequestSpan | undefined = tracing && (await tracing)?.start(ctx);
    const sent = ctx.req.headers['x-request-id'];
    const id = typeof sent === 'string' && CLIENT_ID.test(sent) ? sent : crypto.randomUUID();
    ctx.state.requestId = id;
    // straight onto the response (nothing can have been sent yet): these run on every request
    const { res } = ctx;
    res.setHeader('X-Request-Id', id);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    try {
      if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
        ctx.set('Access-Control-Allow-Headers', 'Authorization, X-API-Key, Content-Type, X-Request-Id');
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        ctx.status = 204;
        return;
      }
      // the dispatcher (pipeline/dispatch.ts) answers 404 and 405 for every route
      await (span ? span.run(next) : next());
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500 && error.code === 'internal_error') log.error({ requestId: id, path: ctx.path, err });
      else if (error.code === 'database_unavailable') databaseDown(log, id, error.cause);
      if (ctx.headerSent || !ctx.writable) {
        ctx.req.destroy();
        return;
      }
      ctx.set(error.headers ?? {});
      // a body left unread (refused before or while reading it) would otherwise be read to its end
      // to keep the connection: close it instead, so a refused upload costs what was already sent
      if (!ctx.req.complete && hasBody(ctx)) ctx.set('Connection', 'close');
      ctx.status = error.status;
      ctx.body = failure(config, error);
    } finally {
      const ms = performance.now() - started;
      // labelled by the matched path template (dispatch.ts), never the URL: bounded cardinality
      const labels = ctx.state.metricLabels as RequestLabels | undefined;
      metrics?.request(labels ?? UNMATCHED, ctx.status, ms / 1000);
      // set once the key was verified (pipeline/admit.ts); the key itself is never at hand here
      const principal = ctx.state.principal as Principal | undefined;
      if (principal) metrics?.keyRequest(principal.tier, ctx.status);
      meterAnswer(ctx, usage, metrics);
      span?.end({ status: ctx.status, route: labels?.endpoint, clientIp: ctx.ip });
      if (config.logRequests) {
        // the endpoint's secret params, as a set built once per endpoint (pipeline/endpoint.ts)
        const secretParams = ctx.state.secretParams as ReadonlySet<string> | undefined;
        // the presented key is blanked under any name it may also appear under (`q=<key>`)
        const secrets = [keyFromRequest(ctx), config.testApiKey];
        const url = redactUrl(ctx.originalUrl, secretParams, secrets);
        const agent = ctx.req.headers['user-agent'];
        log.info({
          requestId: id,
          method: ctx.method,
          url,
          status: ctx.status,
          ms: Math.round(ms * 10) / 10,
          ip: ctx.ip,
          // the key's record id (`test` for the shared test key), as GET /api/admin/keys lists it
          ...(principal && { keyId: principal.keyId, tier: principal.tier }),
          ...(agent && { userAgent: redactText(agent.slice(0, USER_AGENT_MAX), secrets) }),
          ...(span && { traceId: span.traceId }),
        });
      }
    }
  };
}

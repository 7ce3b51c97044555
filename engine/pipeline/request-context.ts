import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Config } from '../config.js';
import { failure, toApiError } from '../envelope.js';
import { keyFromRequest } from '../auth/key-from-request.js';
import { redactUrl } from '../auth/redact.js';
import type { Logger } from '../log.js';
import { rootCause } from '../db/unavailable.js';
import { hasBody } from './body.js';
import { UNMATCHED, type EngineMetrics, type RequestLabels } from '../metrics/metrics.js';

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

/**
 * Outermost middleware: the request id, the one access-log line (with secrets
 * redacted) and the request's count in the metrics (the status is final here), CORS, and the error envelope for anything thrown further in. Nothing
 * thrown escapes as a non-envelope body and no stack reaches the client.
 */
export function requestContext(config: Config, log: Logger, metrics?: EngineMetrics): Middleware {
  const databaseDown = outageLog(DATABASE_LOG_INTERVAL_MS);
  return async (ctx, next) => {
    const started = performance.now();
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
      await next();
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
      metrics?.request((ctx.state.metricLabels as RequestLabels | undefined) ?? UNMATCHED, ctx.status, ms / 1000);
      if (config.logRequests) {
        // the endpoint's secret params, as a set built once per endpoint (pipeline/endpoint.ts)
        const secretParams = ctx.state.secretParams as ReadonlySet<string> | undefined;
        // the presented key is blanked under any name it may also appear under (`q=<key>`)
        const url = redactUrl(ctx.originalUrl, secretParams, [keyFromRequest(ctx), config.testApiKey]);
        log.info({ requestId: id, method: ctx.method, url, status: ctx.status, ms: Math.round(ms * 10) / 10 });
      }
    }
  };
}

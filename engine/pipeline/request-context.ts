import crypto from 'node:crypto';
import type { Middleware } from 'koa';
import type { Config } from '../config.js';
import { failure, toApiError } from '../envelope.js';
import { ApiError, notFound } from '../errors.js';
import { redactUrl } from '../auth/redact.js';
import type { Logger } from '../log.js';

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Outermost middleware: the request id, the one access-log line (with secrets
 * redacted), CORS, and the error envelope for anything thrown further in. Nothing
 * thrown escapes as a non-envelope body and no stack reaches the client.
 */
export function requestContext(config: Config, log: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const sent = ctx.get('X-Request-Id');
    const id = CLIENT_ID.test(sent) ? sent : crypto.randomUUID();
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Access-Control-Expose-Headers', 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After');
    try {
      if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
        ctx.set('Access-Control-Allow-Headers', 'Authorization, X-API-Key, Content-Type, X-Request-Id');
        ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
        ctx.status = 204;
        return;
      }
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw notFound();
      if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) {
        const allow = ctx.response.get('Allow');
        throw new ApiError(405, 'method_not_allowed', `Use ${allow.replace(/, /g, ' or ')} for this path`, { headers: { Allow: allow } });
      }
    } catch (err) {
      const error = toApiError(err);
      if (error.status >= 500 && error.code === 'internal_error') log.error({ requestId: id, path: ctx.path, err });
      if (ctx.headerSent || !ctx.writable) {
        ctx.req.destroy();
        return;
      }
      ctx.set(error.headers ?? {});
      ctx.status = error.status;
      ctx.body = failure(config, error);
    } finally {
      if (config.logRequests) {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        log.info({ requestId: id, method: ctx.method, url: redactUrl(ctx.originalUrl, new Set((ctx.state.secretParams as string[] | undefined) ?? [])), status: ctx.status, ms: Math.round(ms * 10) / 10 });
      }
    }
  };
}

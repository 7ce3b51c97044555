import type { Context } from 'koa';
import type { Principal } from '../auth/authenticate.js';
import { ApiError } from '../../core/errors.js';
import type { RateLimitDecision, RateLimiter } from './rate-limiter.js';

/** Budgets are requests per minute (TEST_KEY_RPM, PERSONAL_KEY_RPM). */
export const RATE_WINDOW_MS = 60_000;

/** The IETF RateLimit header fields (draft) for one decision. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  };
}

/**
 * Count the request against its key's budget: sets the RateLimit-* headers, and
 * throws ApiError 429 rate_limited with Retry-After when the budget is spent. The
 * error carries the RateLimit-* headers too, in case the error renderer starts
 * from clean headers. With an in-process store this completes synchronously and
 * returns undefined (no promise to wait for); with Redis it returns a promise.
 */
export function enforceRateLimit(ctx: Context, limiter: RateLimiter, principal: Principal): Promise<void> | undefined {
  const bucket = `key:${principal.keyId}`;
  if (limiter.hitNow) {
    apply(ctx, limiter.hitNow(bucket, principal.rpm, RATE_WINDOW_MS));
    return undefined;
  }
  return limiter.hit(bucket, principal.rpm, RATE_WINDOW_MS).then((decision) => apply(ctx, decision));
}

function apply(ctx: Context, decision: RateLimitDecision): void {
  // straight onto the response: this runs on every keyed request
  const { res } = ctx;
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
  if (decision.allowed) return;
  const retryAfter = String(decision.retryAfterSeconds ?? decision.resetSeconds);
  throw new ApiError('rate_limited', `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s`, {
    headers: { ...rateLimitHeaders(decision), 'Retry-After': retryAfter },
  });
}

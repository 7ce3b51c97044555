import type { Context } from 'koa';
import type { Principal } from '../auth/authenticate.js';
import { ApiError } from '../errors.js';
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
 * from clean headers.
 */
export async function enforceRateLimit(ctx: Context, limiter: RateLimiter, principal: Principal): Promise<void> {
  const decision = await limiter.hit(`key:${principal.keyId}`, principal.rpm, RATE_WINDOW_MS);
  const headers = rateLimitHeaders(decision);
  ctx.set(headers);
  if (decision.allowed) return;
  const retryAfter = String(decision.retryAfterSeconds ?? decision.resetSeconds);
  throw new ApiError(429, 'rate_limited', `Rate limit of ${decision.limit} requests per minute exceeded; retry in ${retryAfter} s`, {
    headers: { ...headers, 'Retry-After': retryAfter },
  });
}

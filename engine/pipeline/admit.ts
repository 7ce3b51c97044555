import type { Context } from 'koa';
import type { Principal } from '../auth/authenticate.js';
import type { UsageCounter } from '../db/usage.js';
import { enforceRateLimit } from '../limits/enforce-rate-limit.js';
import type { RateLimiter } from '../limits/rate-limiter.js';

export interface AdmitDeps {
  limiter: RateLimiter;
  usage: Pick<UsageCounter, 'count'>;
}

/**
 * Let a request in on its principal's budget (429 past it, with the RateLimit-*
 * headers either way) and count it in its key's usage per route (`route`: the
 * endpoint id, e.g. `GET /api/fun/quote`; GET /checkapikey reads the totals). Public
 * endpoints' per-address principals have no key, so nothing is counted for them.
 * Synchronous (undefined) with the in-process limiter; a promise with Redis.
 */
export function admit(ctx: Context, deps: AdmitDeps, principal: Principal, route: string, keyed = true): Promise<void> | undefined {
  const limited = enforceRateLimit(ctx, deps.limiter, principal);
  if (!keyed) return limited;
  if (!limited) return void deps.usage.count(principal.keyId, route);
  return limited.then(() => deps.usage.count(principal.keyId, route));
}

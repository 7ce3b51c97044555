import type { Context } from 'koa';
import type { Principal } from '../platform/auth/authenticate.js';
import type { UsageCounter } from '../platform/db/usage.js';
import { endpointNotAllowed, ipNotAllowed } from '../platform/auth/key-rules.js';
import { enforceRateLimit } from '../platform/limits/enforce-rate-limit.js';
import type { DailyQuota } from '../platform/limits/daily-quota.js';
import type { RateLimiter } from '../platform/limits/rate-limiter.js';
import { countedAs } from './usage-meter.js';

export interface AdmitDeps {
  limiter: RateLimiter;
  usage: Pick<UsageCounter, 'count'>;
  quota: Pick<DailyQuota, 'take'>;
}

export interface AdmitOptions {
  /** false for public endpoints' per-address principals: rate limited, never counted. */
  keyed?: boolean;
  /** Take one request of the key's daily quota (manifest endpoints; the built-ins a key uses to look at itself or its jobs take none). */
  quota?: boolean;
  /** The manifest endpoint called: a key with an allow-list may call only the endpoints it names (the built-ins a key uses to look at itself stay open). */
  endpoint?: { category: string; path: string; aliases: readonly string[] };
}

/**
 * Let a request in on its key's rules (403 ip_not_allowed, endpoint_not_allowed), then on its principal's budget (429 past it, with the RateLimit-*
 * headers either way), then on its tier's daily quota when it has one (429
 * daily_quota_exceeded), and count it in its key's usage per route (`route`: the
 * endpoint id, e.g. `GET /api/fun/quote`; GET /checkapikey reads the totals). A
 * refused request is not counted. Synchronous (undefined) with the in-process
 * limiter and no quota; a promise with Redis or a quota (one statement in the database).
 */
export function admit(ctx: Context, deps: AdmitDeps, principal: Principal, route: string, options: AdmitOptions = {}): Promise<void> | undefined {
  // who called, for the access log and the usage-by-tier metric (request-context.ts), refused or not
  if (options.keyed !== false) ctx.state.principal = principal;
  // a key's own rules refuse before its budget is touched: a refused request costs nothing
  const { rules } = principal;
  if (rules) {
    if (rules.allowsIp && !rules.allowsIp(ctx.ip)) throw ipNotAllowed(ctx.ip);
    const { endpoint } = options;
    if (rules.allows && endpoint && !rules.allows(endpoint.category, [endpoint.path, ...endpoint.aliases])) throw endpointNotAllowed(endpoint.path);
  }
  const limited = enforceRateLimit(ctx, deps.limiter, principal);
  if (options.keyed === false) return limited;
  // the answer's figures (status class, bytes, tokens) join the same entry (usage-meter.ts)
  const counted = () => {
    deps.usage.count(principal.keyId, route);
    countedAs(ctx, route);
  };
  const { daily } = principal;
  if (options.quota && daily !== undefined) {
    return (async () => {
      await limited;
      await deps.quota.take({ ...principal, daily });
      counted();
    })();
  }
  if (!limited) return void counted();
  return limited.then(counted);
}

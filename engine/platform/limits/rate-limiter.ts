import type { CircuitState } from '../../core/circuit-breaker.js';

/**
 * Per-key request budgets as an exact sliding-window log: a hit is allowed when
 * fewer than `limit` allowed hits happened in the last `windowMs`, so there are
 * never more than `limit` hits in ANY window of that length (no burst at the edges
 * the way fixed windows allow). Denied hits are not recorded and cost nothing.
 *
 * Implementations: memory-rate-limiter.ts (one process), redis-rate-limiter.ts
 * (shared by every instance on one Redis); create-rate-limiter.ts picks one.
 */

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Hits still allowed in the current window after this one. */
  remaining: number;
  /** Seconds until the oldest hit in the window leaves it; at least 1 when remaining is 0. */
  resetSeconds: number;
  /** On denial: seconds after which a hit will be allowed again. */
  retryAfterSeconds?: number;
}

export interface RateLimiter {
  /**
   * Count one hit against `bucket`. A bucket should always be used with the same
   * windowMs; `limit` may change (a tier's budget edited between restarts).
   */
  hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** The same as hit(), answered at once; offered by in-process stores so a request need not wait a tick. */
  hitNow?(bucket: string, limit: number, windowMs: number): RateLimitDecision;
  /** Release connections/timers; the limiter is unusable afterwards. */
  close(): Promise<void>;
  /** The circuit in front of a shared store (metrics); absent for the in-process limiter. */
  readonly circuit?: CircuitState;
}

/** What a store knows after one hit, in its own time unit. */
export interface WindowState {
  allowed: boolean;
  limit: number;
  /** Hits in the window, the current one included when allowed. */
  count: number;
  /** Time of the oldest hit in the window (absent when the window is empty). */
  oldest?: number;
  /**
   * On denial: time of the hit whose departure brings the count below the limit,
   * i.e. the hit at index `count - limit`, oldest first (absent when limit is 0).
   */
  freeing?: number;
  now: number;
  window: number;
  unitsPerSecond: number;
}

/** Whole seconds from `now` until `t` in a store's unit, at least 1. */
function secondsUntil(t: number, s: WindowState): number {
  return Math.max(1, Math.ceil((t - s.now) / s.unitsPerSecond));
}

/** Turn a store's window state into the decision both stores report. */
export function decide(s: WindowState): RateLimitDecision {
  const remaining = Math.max(0, s.limit - s.count);
  // An empty window (limit 0) resets, honestly, a full window from now.
  const resetSeconds = secondsUntil((s.oldest ?? s.now) + s.window, s);
  if (s.allowed) return { allowed: true, limit: s.limit, remaining, resetSeconds };
  const retryAfterSeconds = s.freeing === undefined ? resetSeconds : secondsUntil(s.freeing + s.window, s);
  return { allowed: false, limit: s.limit, remaining, resetSeconds, retryAfterSeconds };
}

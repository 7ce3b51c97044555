import { LRUCache } from 'lru-cache';
import { decide, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

/**
 * In-process sliding-window log: per bucket, the times of the allowed hits still
 * in the window, oldest first. The LRU bounds memory: at most `maxBuckets` buckets,
 * each dropped `windowMs` after its last allowed hit (when its log would be empty anyway).
 * Evicting a live bucket under pressure forgets its hits, so size maxBuckets above
 * the number of keys active within one window.
 */

export interface MemoryRateLimiterOptions {
  maxBuckets?: number;
  /** Milliseconds on a monotonic clock; injectable so tests can walk across window edges. */
  now?: () => number;
}

export const DEFAULT_MAX_BUCKETS = 100_000;

export class MemoryRateLimiter implements RateLimiter {
  readonly #logs: LRUCache<string, number[]>;
  readonly #now: () => number;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    // The LRU reads time for TTLs too; give it the same clock so a test clock governs both.
    this.#logs = new LRUCache({
      max: options.maxBuckets ?? DEFAULT_MAX_BUCKETS,
      perf: { now: this.#now },
    });
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.#now();
    const log = this.#logs.get(bucket) ?? [];
    // A hit at time t is in the window while t > now - windowMs.
    let expired = 0;
    while (expired < log.length && log[expired] <= now - windowMs) expired++;
    if (expired > 0) log.splice(0, expired);
    const allowed = log.length < limit;
    if (allowed) {
      log.push(now);
      this.#logs.set(bucket, log, { ttl: windowMs });
    }
    return decide({
      allowed,
      limit,
      count: log.length,
      oldest: log[0],
      freeing: limit > 0 ? log[log.length - limit] : undefined,
      now,
      window: windowMs,
      unitsPerSecond: 1000,
    });
  }

  /** Buckets currently held (for tests and metrics). */
  get size(): number {
    return this.#logs.size;
  }

  async close(): Promise<void> {
    this.#logs.clear();
  }
}

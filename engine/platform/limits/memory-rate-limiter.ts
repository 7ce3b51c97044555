import { LRUCache } from 'lru-cache';
import { decide, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

/**
 * In-process sliding-window log: per bucket, the times of the allowed hits still
 * in the window, oldest first, in a growable ring (HitLog) so that both recording a
 * hit and dropping expired ones cost O(1) however many hits the window holds (an
 * array with splice() moved every remaining entry on each request). The LRU bounds
 * memory: at most `maxBuckets` buckets, each dropped `windowMs` after it was last
 * consulted (by then every hit it holds has left the window). Evicting a live
 * bucket under pressure forgets its hits, so size maxBuckets above the number of
 * keys active within one window.
 */

export interface MemoryRateLimiterOptions {
  maxBuckets?: number;
  /** Milliseconds on a monotonic clock; injectable so tests can walk across window edges. */
  now?: () => number;
}

export const DEFAULT_MAX_BUCKETS = 100_000;

/** Hit times, oldest first, in a ring buffer that doubles when full. */
export class HitLog {
  #times = new Float64Array(4);
  #head = 0;
  length = 0;

  /** The i-th oldest time (0 ≤ i < length). */
  at(i: number): number {
    return this.#times[(this.#head + i) & (this.#times.length - 1)];
  }

  push(time: number): void {
    if (this.length === this.#times.length) this.#grow();
    this.#times[(this.#head + this.length) & (this.#times.length - 1)] = time;
    this.length++;
  }

  /** Forget the times at or before `cutoff` (they are the oldest, so at the head). */
  dropUntil(cutoff: number): void {
    const mask = this.#times.length - 1;
    while (this.length > 0 && this.#times[this.#head] <= cutoff) {
      this.#head = (this.#head + 1) & mask;
      this.length--;
    }
  }

  #grow(): void {
    const bigger = new Float64Array(this.#times.length * 2);
    for (let i = 0; i < this.length; i++) bigger[i] = this.at(i);
    this.#times = bigger;
    this.#head = 0;
  }
}

export class MemoryRateLimiter implements RateLimiter {
  readonly #logs: LRUCache<string, HitLog>;
  readonly #now: () => number;

  constructor(options: MemoryRateLimiterOptions = {}) {
    this.#now = options.now ?? performance.now.bind(performance);
    // The LRU reads time for TTLs too; give it the same clock so a test clock governs both.
    // Each get() restarts the bucket's TTL, so it is never set again per hit.
    this.#logs = new LRUCache({
      max: options.maxBuckets ?? DEFAULT_MAX_BUCKETS,
      perf: { now: this.#now },
      updateAgeOnGet: true,
    });
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return this.hitNow(bucket, limit, windowMs);
  }

  /** hit() without the promise: the engine's request path takes this when the store is in-process. */
  hitNow(bucket: string, limit: number, windowMs: number): RateLimitDecision {
    const now = this.#now();
    const log = this.#window(bucket, windowMs, now);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    const count = log.length;
    return decide({
      allowed,
      limit,
      count,
      oldest: count > 0 ? log.at(0) : undefined,
      freeing: !allowed && limit > 0 ? log.at(count - limit) : undefined,
      now,
      window: windowMs,
      unitsPerSecond: 1000,
    });
  }

  /**
   * Count a hit allowed elsewhere (by the shared budget in Redis), whatever this
   * store's limit: so that, should it have to decide alone, it knows this instance's
   * hits of the last window (redis-rate-limiter.ts).
   */
  record(bucket: string, windowMs: number): void {
    const now = this.#now();
    this.#window(bucket, windowMs, now).push(now);
  }

  /** The bucket's hits still in the window at `now`. */
  #window(bucket: string, windowMs: number, now: number): HitLog {
    let log = this.#logs.get(bucket);
    if (!log) this.#logs.set(bucket, (log = new HitLog()), { ttl: windowMs });
    // A hit at time t is in the window while t > now - windowMs.
    log.dropUntil(now - windowMs);
    return log;
  }

  /** Buckets currently held (for tests and metrics). */
  get size(): number {
    return this.#logs.size;
  }

  async close(): Promise<void> {
    this.#logs.clear();
  }
}

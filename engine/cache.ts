import { LRUCache } from 'lru-cache';
import { connectRedis, type RedisConnection } from './redis.js';
import type { CircuitState } from './circuit-breaker.js';
import type { Config } from './config.js';
import { silentLogger, type Logger } from './log.js';
import type { CacheOutcome } from './metrics/metrics.js';

/**
 * Result cache with single-flight: concurrent misses for one key share one
 * computation (one upstream call, one render). In-process LRU by default; Redis
 * when REDIS_URL is set, so instances share cached upstream answers. The cache
 * never fails a request: a Redis that errs or does not answer (within its command
 * timeout, or at once while its circuit is open) counts as a miss, and nothing is
 * stored until it answers again.
 */
export interface ResultCache {
  wrap<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** The circuit in front of Redis (metrics); undefined for the in-process cache. */
  readonly circuit?: CircuitState;
}

interface Store {
  get(key: string): Promise<unknown | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
  readonly circuit?: CircuitState;
}

class MemoryStore implements Store {
  private readonly lru = new LRUCache<string, { v: unknown }>({ max: 10_000, maxSize: 64 * 1024 * 1024, sizeCalculation: (e) => approxSize(e.v) });
  async get(key: string) {
    return this.lru.get(key)?.v;
  }
  async set(key: string, value: unknown, ttlSeconds: number) {
    this.lru.set(key, { v: value }, { ttl: ttlSeconds * 1000 });
  }
  async close() {
    this.lru.clear();
  }
}

const approxSize = (v: unknown) => Math.max(1, Buffer.isBuffer(v) ? v.length : JSON.stringify(v ?? null).length);

class RedisStore implements Store {
  constructor(private readonly redis: RedisConnection) {}
  get circuit() {
    return this.redis.circuit;
  }
  async get(key: string) {
    const raw = await this.redis.run((client) => client.get(`manifold:cache:${key}`));
    return raw === null ? undefined : JSON.parse(raw);
  }
  async set(key: string, value: unknown, ttlSeconds: number) {
    await this.redis.run((client) => client.set(`manifold:cache:${key}`, JSON.stringify(value), 'EX', ttlSeconds));
  }
  close() {
    return this.redis.close();
  }
}

/** Told how each lookup ended (the engine's metrics: hit rate). */
export type CacheObserver = (outcome: CacheOutcome) => void;

export function createResultCache(
  config: Pick<Config, 'redisUrl' | 'redisTimeoutMs'>,
  logger: Logger = silentLogger,
  observe: CacheObserver = () => {},
): ResultCache {
  const store: Store = config.redisUrl
    ? new RedisStore(connectRedis(config.redisUrl, { role: 'result cache', logger, commandTimeoutMs: config.redisTimeoutMs }))
    : new MemoryStore();
  const inflight = new Map<string, Promise<unknown>>();
  return {
    async wrap<T>(key: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T> {
      if (ttlSeconds > 0) {
        const hit = await store.get(key).catch(() => undefined);
        if (hit !== undefined) {
          observe('hit');
          return hit as T;
        }
      }
      const running = inflight.get(key);
      if (running) {
        observe('shared');
        return running as Promise<T>;
      }
      observe('miss');
      const promise = compute()
        .then((value) => {
          // not awaited: the answer never waits for the store (the memory store has set it
          // already; Redis runs commands in order, so a later get on this connection sees it)
          if (ttlSeconds > 0) void store.set(key, value, ttlSeconds).catch(() => undefined);
          return value;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, promise);
      return promise;
    },
    close: () => store.close(),
    get circuit() {
      return store.circuit;
    },
  };
}

import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { connectRedis, type RedisConnection } from './redis.js';
import type { CircuitState } from '../core/circuit-breaker.js';
import { DEFAULT_CACHE_BOUNDS, type Config } from './config.js';
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
  /** Bytes the in-process cache holds, as counted against CACHE_MAX_BYTES; undefined with Redis. */
  readonly bytes?: number;
}

interface Store {
  get(key: string): Promise<unknown | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  close(): Promise<void>;
  readonly circuit?: CircuitState;
  readonly bytes?: number;
}

/** The byte bounds of the cache (CACHE_MAX_BYTES, CACHE_MAX_ENTRY_BYTES). */
type CacheBounds = Config['cache'];

class MemoryStore implements Store {
  private readonly lru: LRUCache<string, { v: unknown }>;
  constructor(bounds: CacheBounds) {
    this.lru = new LRUCache({
      maxSize: bounds.maxBytes,
      maxEntrySize: Math.min(bounds.maxEntryBytes, bounds.maxBytes),
      sizeCalculation: (entry, key) => heapSize(key, entry.v),
    });
  }
  /** Bytes held now, by the count that is bounded (tests, metrics). */
  get bytes() {
    return this.lru.calculatedSize;
  }
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

/**
 * What an entry costs the heap, counted high: a JavaScript string takes up to two bytes a
 * character, so a key and a JSON value count twice their length, a Buffer its bytes, and
 * each entry the cache's own bookkeeping. Keys longer than LONG_KEY are stored as their
 * hash (storedKey), so a 6,000-character text in the parameters costs 64 characters here.
 */
const ENTRY_OVERHEAD = 200;
const heapSize = (key: string, v: unknown) => ENTRY_OVERHEAD + 2 * key.length + (Buffer.isBuffer(v) ? v.length : 2 * JSON.stringify(v ?? null).length);

/** Cache keys carry every parameter (a long text, a whole document): past this length they are stored as a SHA-256. */
const LONG_KEY = 200;
const storedKey = (key: string) => (key.length > LONG_KEY ? `sha256:${crypto.createHash('sha256').update(key).digest('hex')}` : key);

class RedisStore implements Store {
  constructor(
    private readonly redis: RedisConnection,
    private readonly maxEntryBytes: number,
  ) {}
  get circuit() {
    return this.redis.circuit;
  }
  async get(key: string) {
    const raw = await this.redis.run((client) => client.get(`manifold:cache:${key}`));
    return raw === null ? undefined : JSON.parse(raw);
  }
  async set(key: string, value: unknown, ttlSeconds: number) {
    const json = JSON.stringify(value);
    // Redis holds every instance's entries: one huge answer is served, not shared
    if (Buffer.byteLength(json) > this.maxEntryBytes) return;
    await this.redis.run((client) => client.set(`manifold:cache:${key}`, json, 'EX', ttlSeconds));
  }
  close() {
    return this.redis.close();
  }
}

/** Told how each lookup ended (the engine's metrics: hit rate). */
export type CacheObserver = (outcome: CacheOutcome) => void;

export function createResultCache(
  config: Pick<Config, 'redisUrl' | 'redisTimeoutMs'> & Partial<Pick<Config, 'cache'>>,
  logger: Logger = silentLogger,
  observe: CacheObserver = () => {},
): ResultCache {
  const bounds = config.cache ?? DEFAULT_CACHE_BOUNDS;
  const store: Store = config.redisUrl
    ? new RedisStore(connectRedis(config.redisUrl, { role: 'result cache', logger, commandTimeoutMs: config.redisTimeoutMs }), bounds.maxEntryBytes)
    : new MemoryStore(bounds);
  const inflight = new Map<string, Promise<unknown>>();
  return {
    async wrap<T>(fullKey: string, ttlSeconds: number, compute: () => Promise<T>): Promise<T> {
      const key = storedKey(fullKey);
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
    get bytes() {
      return store.bytes;
    },
  };
}

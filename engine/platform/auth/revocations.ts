import { EventEmitter } from 'node:events';
import type { Logger } from '../log.js';
import { connectRedis, type RedisConnection } from '../redis.js';
import { subscribeRedis, type RedisSubscriber } from '../redis-subscriber.js';

/**
 * Revocations told to every instance through Redis pub/sub, beside the revision row
 * in the database (key-store.ts). The database alone makes a revocation effective on
 * the next request everywhere — as long as an instance can read it. An instance that
 * cannot (its database frozen or unreachable) answers known keys from its cache for
 * KEY_CACHE_TTL_S; this message takes a key revoked meanwhile out of that cache at once.
 * A message missed while an instance's Redis connection was down is covered by the
 * cache's lifetime.
 */
export const REVOKED_CHANNEL = 'manifold:keys:revoked';
/** A key's rules changed (key-rules.ts): every instance drops the rules it remembers and reads them again. */
export const CHANGED_CHANNEL = 'manifold:keys:changed';

export interface Revocations {
  /** Tell every instance that key `id` was revoked (best effort: the database is the record). */
  publish(id: string): Promise<void>;
  /** Tell every instance that key `id`'s rules changed (best effort, as publish). */
  publishChanged(id: string): Promise<void>;
  /** Listen for revocations and rule changes (every instance's, this one's included); emits the key id. */
  on(event: 'revoked' | 'changed', listener: (id: string) => void): this;
  /** Settles once this instance listens (while Redis is away, once it is back: ioredis keeps trying). */
  readonly listening: Promise<void>;
  close(): Promise<void>;
}

class RedisRevocations extends EventEmitter implements Revocations {
  readonly #publisher: RedisConnection;
  readonly #subscriber: RedisSubscriber;

  constructor(url: string, logger: Logger, commandTimeoutMs?: number) {
    super();
    this.#publisher = connectRedis(url, { role: 'key revocations', logger, commandTimeoutMs });
    this.#subscriber = subscribeRedis(url, [REVOKED_CHANNEL, CHANGED_CHANNEL], (channel, id) => {
      if (channel === REVOKED_CHANNEL) this.emit('revoked', id);
      else if (channel === CHANGED_CHANNEL) this.emit('changed', id);
    });
  }

  get listening(): Promise<void> {
    return this.#subscriber.listening;
  }

  async publish(id: string): Promise<void> {
    await this.#publisher.run((client) => client.publish(REVOKED_CHANNEL, id)).catch(() => undefined);
  }

  async publishChanged(id: string): Promise<void> {
    await this.#publisher.run((client) => client.publish(CHANGED_CHANNEL, id)).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#subscriber.close();
    await this.#publisher.close();
  }
}

/** Revocations through Redis when REDIS_URL is set; none without it (one instance, or the database alone). */
export function createRevocations(config: { redisUrl?: string; redisTimeoutMs?: number }, logger: Logger): Revocations | undefined {
  return config.redisUrl ? new RedisRevocations(config.redisUrl, logger, config.redisTimeoutMs) : undefined;
}

import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';

const require = createRequire(import.meta.url);

/**
 * A Redis connection that listens to pub/sub channels: key revocations (auth/revocations.ts),
 * job cancels (pipeline/jobs/bullmq-queue.ts). A subscribed connection can do nothing else,
 * so it is one of its own. ioredis subscribes again after each reconnect; a message
 * published while it was away is lost, which each user covers in its own way (the
 * database is always the record). Its errors are not logged here: the owner's command
 * connection to the same Redis reports them once, and shares their fate.
 */
export interface RedisSubscriber {
  /** Settles once the channels are subscribed (while Redis is away, once it is back). */
  readonly listening: Promise<void>;
  close(): void;
}

export function subscribeRedis(url: string, channels: string[], onMessage: (channel: string, message: string) => void): RedisSubscriber {
  const { Redis } = require('ioredis') as typeof IoRedis;
  const client = new Redis(url, { retryStrategy: (times) => Math.min(100 * times, 2000), maxRetriesPerRequest: null });
  client.on('error', () => undefined);
  client.on('message', onMessage);
  return {
    listening: client.subscribe(...channels).then(
      () => undefined,
      () => undefined,
    ),
    close: () => client.disconnect(),
  };
}

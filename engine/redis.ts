import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';

const require = createRequire(import.meta.url);

/** A Redis client; ioredis loads only when REDIS_URL is set, so a default boot skips it. */
export function connectRedis(url: string, options: IoRedis.RedisOptions): IoRedis.Redis {
  const { Redis } = require('ioredis') as typeof IoRedis;
  return new Redis(url, options);
}

import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

/** Redis when REDIS_URL is set (one budget across every instance), else in-process. */
export function createRateLimiter(config: Pick<Config, 'redisUrl' | 'redisTimeoutMs'>, logger?: Logger): RateLimiter {
  return config.redisUrl ? new RedisRateLimiter({ url: config.redisUrl, logger, commandTimeoutMs: config.redisTimeoutMs }) : new MemoryRateLimiter();
}

import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';
import { RedisRateLimiter, type OnRedisFailure } from './redis-rate-limiter.js';

const ON_FAILURE: readonly OnRedisFailure[] = ['local', 'deny'];

/** RATE_LIMIT_ON_REDIS_FAILURE: `local` unless set; any other value stops the boot, naming the variable. */
export function onRedisFailure(env: Config['env']): OnRedisFailure {
  const value = env.RATE_LIMIT_ON_REDIS_FAILURE ?? 'local';
  if (!(ON_FAILURE as readonly string[]).includes(value))
    throw new Error(`RATE_LIMIT_ON_REDIS_FAILURE must be one of ${ON_FAILURE.join(', ')}, got "${value}"`);
  return value as OnRedisFailure;
}

/** Redis when REDIS_URL is set (one budget across every instance), else in-process. */
export function createRateLimiter(config: Pick<Config, 'redisUrl' | 'redisTimeoutMs'> & { env?: Config['env'] }, logger?: Logger): RateLimiter {
  const env = config.env ?? {};
  const onFailure = onRedisFailure(env);
  if (!config.redisUrl) return new MemoryRateLimiter();
  return new RedisRateLimiter({
    url: config.redisUrl,
    logger,
    commandTimeoutMs: config.redisTimeoutMs,
    onFailure,
    // a job worker serves no keyed requests: it takes no share of the budgets
    register: env.MANIFOLD_ROLE !== 'worker',
  });
}

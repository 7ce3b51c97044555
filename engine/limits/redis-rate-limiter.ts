import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, type RedisConnection } from '../redis.js';
import { ApiError } from '../errors.js';
import { silentLogger, type Logger } from '../log.js';
import { decide, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

/**
 * The sliding-window log in Redis, shared by every engine instance on it. One Lua
 * script does prune → count → maybe add → expire atomically (Redis runs scripts
 * one at a time), so concurrent hits from many instances can never overshoot the
 * budget. Time comes from Redis's own clock (TIME), so instance clocks don't
 * matter, and each hit gets a unique member so simultaneous hits never collapse
 * into one sorted-set entry.
 *
 * Scores are microseconds (about 2^50 today, exact in a Lua double).
 * Returns {allowed, count, now, oldest, freeing}, all integers, -1 for "none".
 */
const SLIDING_WINDOW_LUA = `
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2]) * 1000
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  count = count + 1
  allowed = 1
end
local function score_at(i)
  local entry = redis.call('ZRANGE', KEYS[1], i, i, 'WITHSCORES')
  if entry[2] then return tonumber(entry[2]) end
  return -1
end
local freeing = -1
if allowed == 0 and limit > 0 then freeing = score_at(count - limit) end
return {allowed, count, now, score_at(0), freeing}
`;

export interface RedisRateLimiterOptions {
  url: string;
  /** Prefix of the bucket keys, so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Where connection trouble is reported (once per change of state). */
  logger?: Logger;
  /** How long a command may wait for its answer (REDIS_TIMEOUT_MS). */
  commandTimeoutMs?: number;
}

export const DEFAULT_KEY_PREFIX = 'manifold:ratelimit:';

type SlidingWindowReply = [number, number, number, number, number];

interface ScriptedRedis extends Redis {
  slidingWindowHit(key: string, limit: number, windowMs: number, member: string): Promise<SlidingWindowReply>;
}

/**
 * Without an answer from Redis no request can be counted, so none is served: an
 * unreachable store answers 503 within the command timeout (or at once while the
 * circuit is open) rather than letting keys through unlimited.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisConnection;
  readonly #prefix: string;

  constructor(options: RedisRateLimiterOptions) {
    this.#redis = connectRedis(options.url, { role: 'rate-limit store', logger: options.logger ?? silentLogger, commandTimeoutMs: options.commandTimeoutMs });
    // defineCommand sends EVALSHA and falls back to EVAL when the script isn't cached yet.
    this.#redis.client.defineCommand('slidingWindowHit', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    this.#prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    let reply: SlidingWindowReply;
    try {
      const key = this.#prefix + bucket;
      reply = await this.#redis.run((client) => (client as ScriptedRedis).slidingWindowHit(key, limit, windowMs, crypto.randomUUID()));
    } catch (cause) {
      throw new ApiError(503, 'unavailable', 'The rate-limit store (Redis) is unreachable; retry in a few seconds', {
        cause,
        headers: { 'Retry-After': '2' },
      });
    }
    const [allowed, count, now, oldest, freeing] = reply;
    return decide({
      allowed: allowed === 1,
      limit,
      count,
      oldest: oldest < 0 ? undefined : oldest,
      freeing: freeing < 0 ? undefined : freeing,
      now,
      window: windowMs * 1000,
      unitsPerSecond: 1_000_000,
    });
  }

  async close(): Promise<void> {
    await this.#redis.close();
  }
}

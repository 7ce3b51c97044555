import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { connectRedis, type RedisConnection } from '../redis.js';
import type { CircuitState } from '../../core/circuit-breaker.js';
import { ApiError } from '../../core/errors.js';
import { silentLogger, type Logger } from '../log.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import { decide, type RateLimitDecision, type RateLimiter } from './rate-limiter.js';

/**
 * The sliding-window log in Redis, shared by every engine instance on it. One Lua
 * script does prune → count → maybe add → expire atomically (Redis runs scripts
 * one at a time), so concurrent hits from many instances can never overshoot the
 * budget. Time comes from Redis's own clock (TIME), so instance clocks don't
 * matter, and each hit gets a unique member so simultaneous hits never collapse
 * into one sorted-set entry. The same script reads how many instances sent a
 * heartbeat lately (KEYS[2]), so each instance knows its share should Redis go away.
 *
 * Scores are microseconds (about 2^50 today, exact in a Lua double).
 * Returns {allowed, count, now, oldest, freeing, instances}, all integers, -1 for "none".
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
local instances = redis.call('ZCOUNT', KEYS[2], math.floor(now / 1000) - tonumber(ARGV[4]), '+inf')
return {allowed, count, now, score_at(0), freeing, instances}
`;

/** One instance's heartbeat: its id scored with Redis's time in ms; stale ones dropped. Returns the live instances. */
const HEARTBEAT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return redis.call('ZCARD', KEYS[1])
`;

/** An instance serving requests says so this often; one silent for INSTANCE_TTL_MS no longer counts. */
const HEARTBEAT_MS = 5000;
const INSTANCE_TTL_MS = 15_000;

/** What a keyed request gets while Redis cannot be reached (RATE_LIMIT_ON_REDIS_FAILURE). */
export type OnRedisFailure = 'local' | 'deny';

export interface RedisRateLimiterOptions {
  url: string;
  /** Prefix of the bucket keys, so several deployments can share one Redis. */
  keyPrefix?: string;
  /** Where connection trouble is reported (once per change of state). */
  logger?: Logger;
  /** How long a command may wait for its answer (REDIS_TIMEOUT_MS). */
  commandTimeoutMs?: number;
  /** `local` (default): count in memory against this instance's share while Redis is away; `deny`: answer 503. */
  onFailure?: OnRedisFailure;
  /** Whether this instance serves keyed requests and so takes a share of each budget (false on a job worker). */
  register?: boolean;
}

export const DEFAULT_KEY_PREFIX = 'manifold:ratelimit:';

type SlidingWindowReply = [number, number, number, number, number, number];

interface ScriptedRedis extends Redis {
  slidingWindowHit(key: string, instancesKey: string, limit: number, windowMs: number, member: string, instanceTtlMs: number): Promise<SlidingWindowReply>;
  heartbeat(instancesKey: string, id: string, instanceTtlMs: number): Promise<number>;
}

/** One instance's part of a budget shared by `instances`: never more than its share, at least one request when the budget allows any. */
export const localShare = (limit: number, instances: number): number => (limit > 0 ? Math.max(1, Math.floor(limit / Math.max(1, instances))) : 0);

/**
 * Hits that Redis cannot count (down, frozen, not answering within the command
 * timeout, or at once while the circuit is open) are, by default, counted in memory
 * against this instance's share of the budget: the budget divided by the instances
 * that sent a heartbeat within INSTANCE_TTL_MS, as last read from Redis. The hits this
 * instance made through Redis in the last window are counted there too (record()), so
 * an outage does not hand out a fresh window. Once Redis answers, the shared budget
 * applies again. With `deny`, such a request answers 503 instead, never unlimited.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: RedisConnection;
  readonly #prefix: string;
  readonly #onFailure: OnRedisFailure;
  readonly #local = new MemoryRateLimiter();
  readonly #id = crypto.randomUUID();
  readonly #heartbeat?: NodeJS.Timeout;
  readonly #registered: Promise<void>;
  #instances = 1;

  constructor(options: RedisRateLimiterOptions) {
    this.#redis = connectRedis(options.url, { role: 'rate-limit store', logger: options.logger ?? silentLogger, commandTimeoutMs: options.commandTimeoutMs });
    // defineCommand sends EVALSHA and falls back to EVAL when the script isn't cached yet.
    this.#redis.client.defineCommand('slidingWindowHit', { numberOfKeys: 2, lua: SLIDING_WINDOW_LUA });
    this.#redis.client.defineCommand('heartbeat', { numberOfKeys: 1, lua: HEARTBEAT_LUA });
    this.#prefix = options.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.#onFailure = options.onFailure ?? 'local';
    if (options.register === false) {
      this.#registered = Promise.resolve();
      return;
    }
    // sent before any hit on this connection, so an answered hit implies a registered instance
    this.#registered = this.#beat();
    this.#heartbeat = setInterval(() => void this.#beat(), HEARTBEAT_MS).unref();
  }

  #beat(): Promise<void> {
    return this.#redis
      .run((client) => (client as ScriptedRedis).heartbeat(this.#instancesKey, this.#id, INSTANCE_TTL_MS))
      .then(
        (instances) => void (this.#instances = instances),
        () => undefined, // Redis away: the count last read stands
      );
  }

  get #instancesKey(): string {
    return this.#prefix + 'instances';
  }

  /** Instances sharing each budget, as last read from Redis (1 until then). */
  get instances(): number {
    return this.#instances;
  }

  /** Settles once this instance's first heartbeat was answered (or failed). */
  get registered(): Promise<void> {
    return this.#registered;
  }

  async hit(bucket: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    let reply: SlidingWindowReply;
    try {
      const key = this.#prefix + bucket;
      reply = await this.#redis.run((client) =>
        (client as ScriptedRedis).slidingWindowHit(key, this.#instancesKey, limit, windowMs, crypto.randomUUID(), INSTANCE_TTL_MS),
      );
    } catch (cause) {
      if (this.#onFailure === 'local') return this.#local.hitNow(bucket, localShare(limit, this.#instances), windowMs);
      throw new ApiError('unavailable', 'The rate-limit store (Redis) is unreachable; retry in a few seconds', {
        cause,
        headers: { 'Retry-After': '2' },
      });
    }
    const [allowed, count, now, oldest, freeing, instances] = reply;
    if (instances > 0) this.#instances = instances;
    if (allowed === 1 && this.#onFailure === 'local') this.#local.record(bucket, windowMs);
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

  /** The circuit in front of Redis (metrics). */
  get circuit(): CircuitState {
    return this.#redis.circuit;
  }

  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    // leave the count at once rather than INSTANCE_TTL_MS later; a Redis that is away forgets it by itself
    if (this.#heartbeat && this.#redis.circuit === 'closed')
      await this.#redis.run((client) => client.zrem(this.#instancesKey, this.#id)).catch(() => undefined);
    await this.#local.close();
    await this.#redis.close();
  }
}

import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import { CircuitBreaker, type CircuitState } from './circuit-breaker.js';
import type { Logger } from './log.js';

const require = createRequire(import.meta.url);

/**
 * A Redis connection that fails fast. Every command has a short timeout (also while
 * it waits in the offline queue for a connection), and runs behind a circuit breaker,
 * so an unresponsive Redis (frozen, or a port that accepts and never answers) costs
 * a few calls COMMAND_TIMEOUT_MS each and then none: callers get an error at once
 * and decide (the rate limiter answers 503, the result cache computes without it).
 * The client reconnects by itself and the breaker's probe closes the circuit when
 * Redis answers again. Connection trouble is logged once per change of state, as
 * one line without a stack; ioredis never prints an unhandled 'error' event.
 */

/**
 * A command that gets no answer within this fails (the breaker counts it), unless the host
 * sets REDIS_TIMEOUT_MS: a loaded machine (CI at load 13) can take longer than this to read
 * an answer Redis already sent, and every such miss is a 503 to a client.
 */
export const COMMAND_TIMEOUT_MS = 500;
/** A TCP connect that takes longer fails, and the client retries. */
export const CONNECT_TIMEOUT_MS = 1000;
/** With commands waiting and no byte from Redis for this long, the socket is presumed dead and replaced. */
const SOCKET_TIMEOUT_MS = 5000;
/** Consecutive failed commands that open the circuit, and how long it stays open before one probe. */
const BREAKER = { threshold: 3, cooldownMs: 1000 };

export interface RedisConnection {
  readonly client: IoRedis.Redis;
  /** Run commands on the client through the breaker; rejects with CircuitOpenError at once while it is open. */
  run<T>(commands: (client: IoRedis.Redis) => Promise<T>): Promise<T>;
  readonly circuit: CircuitState;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** What this connection is for, in log lines ("rate-limit store", "result cache"). */
  role: string;
  logger: Logger;
  /** How long a command may wait for its answer (REDIS_TIMEOUT_MS); COMMAND_TIMEOUT_MS when not given. */
  commandTimeoutMs?: number;
  /** ioredis options on top of the fail-fast defaults (tests). */
  redis?: IoRedis.RedisOptions;
}

/** Open a connection; ioredis loads only when REDIS_URL is set, so a default boot skips it. */
export function connectRedis(url: string, { role, logger, commandTimeoutMs = COMMAND_TIMEOUT_MS, redis: overrides }: ConnectOptions): RedisConnection {
  const { Redis } = require('ioredis') as typeof IoRedis;
  const client = new Redis(url, {
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // queue commands while (re)connecting, but only as long as their timeout allows;
    // a reconnect attempt that fails flushes them at once
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    // reconnect soon and keep trying: recovery must need no restart
    retryStrategy: (times) => Math.min(100 * times, 2000),
    ...overrides,
  });

  // the URL may hold a password: log lines name the role, never the address
  let reachable: boolean | undefined;
  client.on('error', (err: Error) => {
    if (reachable === false) return;
    reachable = false;
    logger.error({ msg: 'redis unreachable', role, error: err.message });
  });
  client.on('ready', () => {
    if (reachable === false) logger.info({ msg: 'redis reachable again', role });
    reachable = true;
  });

  const breaker = new CircuitBreaker({
    ...BREAKER,
    // Redis answering with an error (a script bug, a wrong type) means it is up
    isFailure: (error) => (error as Error | undefined)?.name !== 'ReplyError',
    onChange(to, from) {
      if (to === 'open' && from === 'closed') logger.error({ msg: 'redis not answering: failing fast until it does', role });
      if (to === 'closed') logger.info({ msg: 'redis answering again', role });
    },
  });

  return {
    client,
    run: (commands) => breaker.run(() => commands(client)),
    get circuit() {
      return breaker.state;
    },
    async close() {
      // QUIT waits for an answer; an unresponsive server gets its socket closed instead
      await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}

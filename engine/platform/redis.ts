import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import { CircuitBreaker, type CircuitState } from '../core/circuit-breaker.js';
import type { Logger } from './log.js';
import { loopLagReading, watchLoopLag } from '../core/loop-lag.js';

const require = createRequire(import.meta.url);

/**
 * A Redis connection that fails fast. Every command has a short deadline (also while
 * it waits in the offline queue for a connection), and runs behind a circuit breaker,
 * so an unresponsive Redis (frozen, or a port that accepts and never answers) costs
 * a few calls COMMAND_TIMEOUT_MS each and then none: callers get an error at once
 * and decide (the rate limiter counts locally or answers 503, the result cache
 * computes without it). The client reconnects by itself and a background PING closes
 * the circuit when Redis answers again. Connection trouble is logged once per change
 * of state, as one line without a stack; ioredis never prints an unhandled 'error' event.
 *
 * The deadline counts only time this process could have read the answer in: a loaded
 * machine (CI at load 13) or a busy event loop reads an answer Redis already sent late,
 * and a fixed wall-clock timeout turned that into 503s and an open circuit. So the
 * deadline is looked at after the loop has read its sockets (setImmediate), is extended
 * by however late the loop was meanwhile (loop-lag.ts), and a command whose wait runs
 * out on the wall clock (MAX_STRETCH) before it had that much time is not held against Redis.
 */

/** A command that gets no answer within this (REDIS_TIMEOUT_MS when set) fails and the breaker counts it. */
export const COMMAND_TIMEOUT_MS = 500;
/** However late the loop, a command gives up after this many times its timeout on the wall clock. */
const MAX_STRETCH = 10;
/** A TCP connect that takes longer fails, and the client retries. */
export const CONNECT_TIMEOUT_MS = 1000;
/** With commands waiting and no byte from Redis for this long, the socket is presumed dead and replaced. */
const SOCKET_TIMEOUT_MS = 5000;
/** Consecutive failed commands that open the circuit, and how long it stays open before one probe. */
const BREAKER = { threshold: 3, cooldownMs: 1000 };

/** A command that got no answer in time; `loopLateMs` is how late this process's event loop was meanwhile. */
export class RedisTimeoutError extends Error {
  override readonly name = 'RedisTimeoutError';
  constructor(
    readonly timeoutMs: number,
    readonly waitedMs: number,
    readonly loopLateMs: number,
  ) {
    super(`Redis did not answer within ${timeoutMs} ms (waited ${Math.round(waitedMs)} ms, the event loop late by ${Math.round(loopLateMs)} ms)`);
  }

  /** The wait ran out on the wall clock before Redis had its timeout of time the loop was not late: it says nothing about Redis. */
  get loopWasLate(): boolean {
    return this.waitedMs - this.loopLateMs < this.timeoutMs;
  }
}

/**
 * `work`, or a RedisTimeoutError once it has had `timeoutMs` of time in which the loop
 * was not late (at most MAX_STRETCH × timeoutMs of wall clock).
 */
export function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const started = performance.now();
    const lagAtStart = loopLagReading();
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const check = () =>
      // after this turn's poll phase: an answer that reached the socket while the loop was busy is read first
      setImmediate(() => {
        if (done) return;
        const waited = performance.now() - started;
        const late = loopLagReading() - lagAtStart;
        const live = waited - late;
        if (live < timeoutMs && waited < timeoutMs * MAX_STRETCH) {
          timer = setTimeout(check, Math.min(timeoutMs - live, timeoutMs * MAX_STRETCH - waited));
          return;
        }
        done = true;
        reject(new RedisTimeoutError(timeoutMs, waited, late));
      });
    timer = setTimeout(check, timeoutMs);
    work.then(
      (value) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

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
    // no commandTimeout: withDeadline times each command, net of the loop's own lateness
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

  const stopWatchingLoop = watchLoopLag();
  const breaker = new CircuitBreaker({
    ...BREAKER,
    // Redis answering with an error (a script bug, a wrong type) means it is up
    isFailure: (error) => (error as Error | undefined)?.name !== 'ReplyError',
    isInconclusive: (error) => error instanceof RedisTimeoutError && error.loopWasLate,
    // no request waits for the probe: callers keep failing fast (or counting locally) until a PING is answered
    probe: () => withDeadline(client.ping(), commandTimeoutMs),
    onChange(to, from) {
      if (to === 'open' && from === 'closed') logger.error({ msg: 'redis not answering: failing fast until it does', role });
      if (to === 'closed') logger.info({ msg: 'redis answering again', role });
    },
  });

  return {
    client,
    run: (commands) => breaker.run(() => withDeadline(commands(client), commandTimeoutMs)),
    get circuit() {
      return breaker.state;
    },
    async close() {
      stopWatchingLoop();
      // QUIT waits for an answer; an unresponsive server gets its socket closed instead
      await client.quit().catch(() => undefined);
      client.disconnect();
    },
  };
}

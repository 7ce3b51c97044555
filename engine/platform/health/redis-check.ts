import type { Logger } from '../log.js';
import { connectRedis, type RedisConnection } from '../redis.js';

/** While Redis is away, a reconnect is tried this often: readiness turns back within about this of Redis's return. */
const RECONNECT_MS = 250;

/**
 * Does Redis answer PING now? On a connection of the readiness checks' own, opened on
 * the first check: the request path's connections back off to 2 s between reconnects
 * and sit behind circuits, which would make readiness lag a returning Redis; this one
 * retries every RECONNECT_MS and is asked directly.
 */
export class RedisCheck {
  #connection?: RedisConnection;

  constructor(
    private readonly url: string,
    private readonly options: { logger: Logger; timeoutMs: number },
  ) {}

  async ping(signal: AbortSignal): Promise<void> {
    const connection = (this.#connection ??= connectRedis(this.url, {
      role: 'readiness check',
      logger: this.options.logger,
      commandTimeoutMs: this.options.timeoutMs,
      redis: { retryStrategy: () => RECONNECT_MS },
    }));
    if (signal.aborted) throw signal.reason;
    await connection.client.ping();
  }

  async close(): Promise<void> {
    await this.#connection?.close();
    this.#connection = undefined;
  }
}

import type { CircuitBreaker, CircuitState } from '../../core/circuit-breaker.js';
import type { Config } from '../config.js';
import { databaseBreaker, databaseTarget, openDatabase, type Database, type DatabaseHandle, type DatabaseTarget } from './database.js';

/**
 * One engine's database: made by createEngine and handed to every store that keeps state
 * (keys, usage, the daily quota, jobs, the media cache, temp mail, short links, the AI
 * memory, the readiness check), so two engines in one process share no connection and no
 * circuit, and closing an engine closes its own database only.
 *
 * Opened on first use, not at boot (Kysely and pg load then). A failed open (PostgreSQL
 * not up yet: compose, a restart) is retried by the next use, with the same circuit, so a
 * server that is down stays refused at once until it answers a probe. A use after close()
 * opens it afresh (an engine closed and used again, as tests do): close() again closes that.
 *
 * Two engines on one SQLite file each hold a connection of their own. That is safe: the
 * file is in WAL mode (readers never wait for the writer), every connection waits up to
 * the busy timeout for another's write lock, and because a wait for that lock blocks the
 * thread the other connection's transaction needs to finish, the transactions of one
 * process's connections to one file take turns, and a statement waits for another
 * connection's open transaction (connect.ts), as on one shared connection.
 */
export class EngineDatabase implements DatabaseHandle {
  readonly target: DatabaseTarget;
  #breaker?: CircuitBreaker;
  #db?: Database;

  /** Throws on a bad DATABASE_TIMEOUT_MS, so the setting stops the boot, not the first request needing the database. */
  constructor(config: Pick<Config, 'dataDir' | 'env'>) {
    this.target = databaseTarget(config);
  }

  /** The open database, opened (and migrated) now if it is not. */
  current(): Database {
    const existing = this.#db;
    if (existing && !existing.closed && !existing.failed) return existing;
    if (existing?.failed) void existing.close();
    // one circuit per engine, kept across reopens: a database reopened after an outage keeps its circuit's state
    if ('url' in this.target) this.#breaker ??= databaseBreaker();
    return (this.#db = openDatabase(this.target, this.#breaker));
  }

  /** PostgreSQL: its circuit's state, without opening anything (metrics); undefined on SQLite or before first use. */
  get circuit(): CircuitState | undefined {
    return this.#breaker?.state;
  }

  /** Close the database (engine shutdown). */
  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    await db?.close();
  }
}

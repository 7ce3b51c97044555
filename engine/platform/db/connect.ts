import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { Mutex, type MutexInterface } from 'async-mutex';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { MIGRATION_NAMES, migrationProvider, type Dialect } from './migrations.js';
import type { Tables } from './tables.js';
import type { CircuitBreaker } from '../../core/circuit-breaker.js';
import { guardDriver, rootCause } from './unavailable.js';

/**
 * The query builder and driver side of engine/platform/db/database.ts, imported on first use
 * of a database so that an instance that has not touched its state yet (boot, a
 * server answering only stateless endpoints) loads neither Kysely nor pg.
 */

/**
 * Kysely's SQLite transactions, begun IMMEDIATE: the write lock is taken (or waited
 * for, busy_timeout) at BEGIN, so a transaction that reads before it writes cannot
 * fail with SQLITE_BUSY when another process (the keys CLI) committed in between.
 * Both dialects' drivers answer 503 database_unavailable when the database cannot be reached (unavailable.ts).
 */
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly sqlite: BetterSqlite3.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return guardDriver(takingTurns(driver, path.resolve(this.sqlite.name)));
  }
}

/**
 * This process's connections to each SQLite file, and the lock their transactions take
 * turns with: a lock, not a service. Kysely lets one query or transaction at a time use
 * a connection; two connections of one process to one file (two engines on one
 * DATA_DIR) need the same between them. Otherwise one engine's write waits for the
 * other's open transaction in SQLite's busy handler, which sleeps on this thread, so
 * that transaction cannot commit until the busy timeout fails the write with
 * SQLITE_BUSY. A transaction holds the lock from BEGIN to its end; a statement outside
 * one runs at once (better-sqlite3 runs it synchronously, so it is never open while
 * another runs) unless another connection's transaction holds the lock. With one
 * connection, a statement costs a check and a transaction one uncontended lock. Another
 * process's connection (the keys CLI) is on its own thread: the busy timeout is enough there.
 */
const fileTurns = new Map<string, { mutex: Mutex; connections: number }>();

function takingTurns(driver: Driver, file: string): Driver {
  const turns = fileTurns.get(file) ?? { mutex: new Mutex(), connections: 0 };
  fileTurns.set(file, turns);
  turns.connections++;
  /** Set while this connection's transaction holds the file. */
  let release: MutexInterface.Releaser | undefined;
  const { acquireConnection, beginTransaction, commitTransaction, rollbackTransaction, destroy } = driver;
  const wrapped = new WeakSet<DatabaseConnection>();
  driver.acquireConnection = async () => {
    const connection = await acquireConnection.call(driver);
    if (!wrapped.has(connection)) {
      wrapped.add(connection);
      const execute = connection.executeQuery.bind(connection);
      // checked right before the statement runs: between an await and the next, another connection may have begun
      const run = <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
        release || !turns.mutex.isLocked() ? execute<R>(query) : turns.mutex.waitForUnlock().then(() => run<R>(query));
      connection.executeQuery = run;
    }
    return connection;
  };
  driver.beginTransaction = async (connection, settings) => {
    release = await turns.mutex.acquire();
    try {
      await beginTransaction.call(driver, connection, settings);
    } catch (err) {
      ended();
      throw err;
    }
  };
  const ended = () => {
    const releaser = release;
    release = undefined;
    releaser?.();
  };
  driver.commitTransaction = (connection) => commitTransaction.call(driver, connection).finally(ended);
  driver.rollbackTransaction = (connection) => rollbackTransaction.call(driver, connection).finally(ended);
  let destroyed = false;
  driver.destroy = async () => {
    if (!destroyed && --turns.connections === 0 && fileTurns.get(file) === turns) fileTurns.delete(file);
    destroyed = true;
    await destroy.call(driver);
  };
  return driver;
}

class GuardedPostgresDialect extends PostgresDialect {
  constructor(
    config: ConstructorParameters<typeof PostgresDialect>[0],
    readonly breaker: CircuitBreaker,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return guardDriver(super.createDriver(), { breaker: this.breaker, probe: CompiledQuery.raw('select 1') });
  }
}

/**
 * Kysely on an open better-sqlite3 connection, migrated. Kysely takes no lock between
 * connections: an IMMEDIATE transaction around the whole run is the lock between
 * processes (database.ts lets this process's connections to one file migrate one at a
 * time), and SQLite's DDL is transactional, so a failed migration leaves nothing
 * behind. A database with every migration applied (the usual boot) takes no write
 * lock at all.
 */
export async function connectSqlite(sqlite: BetterSqlite3.Database): Promise<Kysely<Tables>> {
  const kysely = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect(sqlite) });
  if (migrated(sqlite)) return kysely;
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    await migrateToLatest(kysely, 'sqlite');
    sqlite.exec('COMMIT');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    await kysely.destroy().catch(() => undefined);
    throw error;
  }
  return kysely;
}

function migrated(sqlite: BetterSqlite3.Database): boolean {
  if (!sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'").get()) return false;
  const applied = new Set(sqlite.prepare('SELECT name FROM kysely_migration').pluck().all());
  return MIGRATION_NAMES.every((name) => applied.has(name));
}

/** bigint columns hold epoch milliseconds and counters: read them as numbers (exact below 2^53). */
const NUMERIC_OIDS = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    NUMERIC_OIDS.has(oid) && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /**
   * How long a request waits for a new connection, and for the answer to each query,
   * before it is answered 503: an unreachable host never refuses, a frozen server
   * accepts connections and never answers. Enforced by the client (pg's
   * query_timeout), not by a statement_timeout startup parameter, which PgBouncer
   * refuses; a statement_timeout set on the role or database still answers 503.
   */
  timeoutMs: number;
  /** The circuit every connection is taken through (one per engine and server, kept across reopens: engine-database.ts). */
  breaker: CircuitBreaker;
}

/** Kysely on a pool of up to 10 connections to `url`, migrated: Kysely's Migrator holds a PostgreSQL advisory lock and runs the migrations in one transaction. */
export async function connectPostgres(url: string, { timeoutMs, breaker }: PostgresOptions): Promise<Kysely<Tables>> {
  const pool = new pg.Pool({
    connectionString: url,
    types,
    max: 10,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  // an idle connection dropped by the server is replaced on next use; it must not crash the process
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // pg-pool listens for errors on idle connections only: one whose backend is terminated
    // under a query (a server restart, pg_terminate_backend, a PgBouncer recycle) emits
    // 'error' while checked out, which unheard crashes the process. The query has failed
    // with its own error already, and the pool drops the connection when it comes back
    // (pg marks it not queryable), so the next query gets a fresh one.
    client.on('error', () => undefined);
    endWhenUnusable(client);
  });
  const kysely = new Kysely<Tables>({ dialect: new GuardedPostgresDialect({ pool }, breaker) });
  try {
    await migrateToLatest(kysely, 'postgres');
  } catch (error) {
    await kysely.destroy().catch(() => undefined);
    throw error;
  }
  return kysely;
}

/**
 * A connection a failed query left unusable is closed (pg's end(), which drops the
 * socket of a client with a query in flight), so the pool never hands it out again:
 * - a query that got no answer in time is still on the server (maybe inside a
 *   transaction the client could not roll back), and must not answer the next user's
 *   query with the old one's state;
 * - a FATAL error is the server ending the session (57P01: its backend terminated by a
 *   restart, pg_terminate_backend or a PgBouncer recycle). pg marks the connection dead
 *   only once it reads the socket's end, which may come after the connection went back
 *   to the pool and was handed to the next query: that query, on a fine server, would
 *   fail too (measured: test/db/database-down.test.ts).
 */
function endWhenUnusable(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise)
      result.catch((err: unknown) => {
        const e = err as { message?: unknown; severity?: unknown } | undefined;
        if (e?.message === 'Query read timeout' || e?.severity === 'FATAL') void client.end().catch(() => undefined);
      });
    return result;
  };
}

async function migrateToLatest(kysely: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Database migration ${failed ? `${failed} ` : ''}failed: ${rootCause(error)}`, { cause: error });
  }
}

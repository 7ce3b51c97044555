import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { MIGRATION_NAMES, migrationProvider, type Dialect } from './migrations.js';
import type { Tables } from './tables.js';
import { guardDriver, rootCause } from './unavailable.js';

/**
 * The query builder and driver side of engine/db/database.ts, imported on first use
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
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return guardDriver(driver);
  }
}

class GuardedPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return guardDriver(super.createDriver());
  }
}

/** How long a request waits for a new connection to PostgreSQL before it is answered 503 (an unreachable host never refuses). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * Kysely on an open better-sqlite3 connection, migrated. Kysely takes no lock on
 * SQLite (one connection per process): an IMMEDIATE transaction around the whole run
 * is the lock between processes, and SQLite's DDL is transactional, so a failed
 * migration leaves nothing behind. A database with every migration applied (the
 * usual boot) takes no write lock at all.
 */
export async function connectSqlite(sqlite: BetterSqlite3.Database): Promise<Kysely<Tables>> {
  const kysely = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
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

/** Kysely on a pool of up to 10 connections to `url`, migrated: Kysely's Migrator holds a PostgreSQL advisory lock and runs the migrations in one transaction. */
export async function connectPostgres(url: string): Promise<Kysely<Tables>> {
  const pool = new pg.Pool({ connectionString: url, types, max: 10, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // an idle connection dropped by the server is replaced on next use; it must not crash the process
  pool.on('error', () => undefined);
  const kysely = new Kysely<Tables>({ dialect: new GuardedPostgresDialect({ pool }) });
  try {
    await migrateToLatest(kysely, 'postgres');
  } catch (error) {
    await kysely.destroy().catch(() => undefined);
    throw error;
  }
  return kysely;
}

async function migrateToLatest(kysely: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Database migration ${failed ? `${failed} ` : ''}failed: ${rootCause(error)}`, { cause: error });
  }
}

import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type Driver } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { Config } from '../config.js';
import { MIGRATION_NAMES, migrationProvider, type Dialect } from './migrations.js';
import type { Tables } from './tables.js';

/**
 * Where Manifold keeps its state: PostgreSQL when DATABASE_URL is set (shared by
 * every instance), else the embedded SQLite file `<DATA_DIR>/manifold.db`. Both
 * are reached through one typed query builder (Kysely), so each query is written
 * once; the migrations (engine/db/migrations.ts) are applied when a database is
 * first opened in the process, with a lock, so instances booting at once apply
 * them exactly once.
 */
export interface Database {
  readonly dialect: Dialect;
  readonly kysely: Kysely<Tables>;
  /** The better-sqlite3 connection behind an SQLite database, for the few synchronous checks on the hot path. */
  readonly sqlite?: BetterSqlite3.Database;
  /** Settles when the migrations have been applied (rejects if they failed). */
  readonly ready: Promise<void>;
  readonly closed: boolean;
  /** The migrations failed (e.g. the server was unreachable): the shared database is opened afresh on next use. */
  readonly failed: boolean;
  close(): Promise<void>;
}

export type { Dialect };
export const DATABASE_FILE = 'manifold.db';
const BUSY_TIMEOUT_MS = 5000;

/** What `database()` opens for this configuration: the PostgreSQL URL or the SQLite file. */
export function databaseTarget(config: Pick<Config, 'dataDir' | 'env'>): { url: string } | { file: string } {
  const url = config.env.DATABASE_URL;
  return url ? { url } : { file: path.join(path.resolve(config.dataDir), DATABASE_FILE) };
}

const shared = new Map<string, Database>();
const keyOf = (target: { url: string } | { file: string }) => ('url' in target ? target.url : target.file);

/**
 * The process's shared database for this configuration, opened (and migrated) on
 * first use. Every store asks for it per use, so an engine that closed it (restart,
 * tests) and is used again gets a fresh one.
 */
export function database(config: Pick<Config, 'dataDir' | 'env'>): Database {
  const target = databaseTarget(config);
  const existing = shared.get(keyOf(target));
  if (existing && !existing.closed && !existing.failed) return existing;
  // PostgreSQL may come up after the instance (compose, a restart): a failed open is retried by the next use
  if (existing?.failed) void existing.close();
  const opened = openDatabase(target);
  shared.set(keyOf(target), opened);
  return opened;
}

/**
 * What a store is built on: a configuration (the engine's shared database, looked up
 * per use so one closed by a restart is reopened) or one given database (tests).
 */
export type DatabaseSource = Pick<Config, 'dataDir' | 'env'> | Database;

/** The database `source` stands for now. */
export function databaseOf(source: DatabaseSource): Database {
  return 'kysely' in source ? source : database(source);
}

/** The database `source` stands for, once its migrations are applied. */
export async function readyDatabase(source: DatabaseSource): Promise<Database> {
  const db = databaseOf(source);
  await db.ready;
  return db;
}

/** Close the shared database of this configuration (at shutdown, or between tests). */
export async function closeDatabase(config: Pick<Config, 'dataDir' | 'env'>): Promise<void> {
  const key = keyOf(databaseTarget(config));
  const db = shared.get(key);
  shared.delete(key);
  await db?.close();
}

/**
 * A database of its own, not shared: what another process would have. Callers own
 * it and close it (tests of cross-process behaviour, the migration race).
 */
export function openDatabase(target: { url: string } | { file: string }): Database {
  return 'url' in target ? openPostgres(target.url) : openSqlite(target.file);
}

/**
 * Kysely's SQLite transactions, begun IMMEDIATE: the write lock is taken (or waited
 * for, busy_timeout) at BEGIN, so a transaction that reads before it writes cannot
 * fail with SQLITE_BUSY when another process (the keys CLI) committed in between.
 */
class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection) => {
      await connection.executeQuery(CompiledQuery.raw('begin immediate'));
    };
    return driver;
  }
}

/** SQLite migrations running in this process, by file. */
const migratingFiles = new Map<string, Promise<void>>();

function openSqlite(file: string): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS });
  // WAL: the server reads while another process (the keys CLI) writes.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const kysely = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: sqlite }) });
  // Kysely takes no lock on SQLite (one connection per process): an IMMEDIATE
  // transaction around the whole run is the lock between processes, and SQLite's
  // DDL is transactional, so a failed migration leaves nothing behind.
  // BEGIN IMMEDIATE waits for the lock synchronously: a second connection in this
  // process must not wait there for the first (whose migration needs this thread)
  const previous = migratingFiles.get(file);
  const ready = (async () => {
    await previous?.catch(() => undefined);
    if (migrated(sqlite)) return;
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      await migrateToLatest(kysely, 'sqlite');
      sqlite.exec('COMMIT');
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  })();
  migratingFiles.set(file, ready);
  void ready.finally(() => migratingFiles.get(file) === ready && migratingFiles.delete(file)).catch(() => undefined);
  return handle('sqlite', kysely, ready, sqlite);
}

/** Whether every migration is applied already (the usual boot): then no write lock is taken. */
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

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, types, max: 10 });
  // an idle connection dropped by the server is replaced on next use; it must not crash the process
  pool.on('error', () => undefined);
  const kysely = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  // Kysely's Migrator holds a PostgreSQL advisory lock and runs the migrations in one transaction
  return handle('postgres', kysely, migrateToLatest(kysely, 'postgres'));
}

async function migrateToLatest(kysely: Kysely<any>, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({ db: kysely, provider: migrationProvider(dialect) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`, { cause: error });
  }
}

function handle(dialect: Dialect, kysely: Kysely<Tables>, ready: Promise<void>, sqlite?: BetterSqlite3.Database): Database {
  let closed = false;
  let failed = false;
  // a failed migration is reported to every caller that waits for it, never as an unhandled rejection
  ready.catch(() => (failed = true));
  return {
    dialect,
    kysely,
    sqlite,
    ready,
    get closed() {
      return closed;
    },
    get failed() {
      return failed;
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      await kysely.destroy();
    },
  };
}

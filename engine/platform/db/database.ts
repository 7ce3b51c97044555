import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { CircuitBreaker, type CircuitState } from '../../core/circuit-breaker.js';
import type { Config } from '../config.js';
import { positiveInt } from '../settings/int.js';
import type { Dialect } from './migrations.js';
import type { Tables } from './tables.js';
import { ApiError } from '../../core/errors.js';
import { databaseUnavailable, isTimeout, isUnreachable } from './unavailable.js';
import { Sqlite } from './sqlite-driver.js';

/**
 * Where Manifold keeps its state: PostgreSQL when DATABASE_URL is set (shared by
 * every instance), else the embedded SQLite file `<DATA_DIR>/manifold.db`. Both
 * are reached through one typed query builder (Kysely), so each query is written
 * once; the migrations (engine/platform/db/migrations.ts) are applied when a connection is
 * opened, with a lock, so instances booting at once apply them exactly once. Each engine
 * opens its own (EngineDatabase, engine-database.ts).
 */
export interface Database {
  readonly dialect: Dialect;
  /** The query builder, once `ready` has resolved (Kysely and pg load on first use, not at boot). */
  readonly kysely: Kysely<Tables>;
  /** The better-sqlite3 connection behind an SQLite database, for the few synchronous checks on the hot path. */
  readonly sqlite?: BetterSqlite3.Database;
  /** Settles when the migrations have been applied (rejects if they failed). */
  readonly ready: Promise<void>;
  readonly closed: boolean;
  /** The migrations failed (e.g. the server was unreachable): the engine's database is opened afresh on next use. */
  readonly failed: boolean;
  /**
   * PostgreSQL: its circuit's state; anything but `closed` means the server failed lately
   * and queries are refused at once (the key check then answers from its cache: key-store.ts).
   * Undefined on SQLite, which has no circuit.
   */
  readonly circuit?: CircuitState;
  close(): Promise<void>;
}

export type { Dialect };
export const DATABASE_FILE = 'manifold.db';
const BUSY_TIMEOUT_MS = 5000;
/** PostgreSQL: the longest wait for a new connection or for a query's answer (DATABASE_TIMEOUT_MS). */
export const DATABASE_TIMEOUT_MS = 5000;
/**
 * PostgreSQL's circuit: while open, requests needing the database get 503 at once;
 * every 2 s one request probes. One timeout opens it: each cost its request
 * DATABASE_TIMEOUT_MS, and a frozen server or a silent port would cost every request
 * let through that much (isTimeout). A failure that came at once (refused, reset, a
 * backend terminated by a restart or a PgBouncer recycle) opens it only on the third
 * in a row, with no success in between: one dropped connection costs its own request
 * a 503, not every request 2 s of them, and a stopped server, refusing at once, costs
 * two more fast 503s before the circuit opens.
 */
const BREAKER = { threshold: 3, cooldownMs: 2000 };

/** A PostgreSQL server, and how long to wait for it. */
export interface PostgresTarget {
  url: string;
  timeoutMs?: number;
}
export type DatabaseTarget = PostgresTarget | { file: string };

/** What an engine's database opens for this configuration: the PostgreSQL URL or the SQLite file. */
export function databaseTarget(config: Pick<Config, 'dataDir' | 'env'>): DatabaseTarget {
  const url = config.env.DATABASE_URL;
  if (!url) return { file: path.join(path.resolve(config.dataDir), DATABASE_FILE) };
  return { url, timeoutMs: positiveInt(config.env, 'DATABASE_TIMEOUT_MS', DATABASE_TIMEOUT_MS) };
}

/** A new circuit for a PostgreSQL server (BREAKER): an engine keeps one across reopens (engine-database.ts). */
export const databaseBreaker = () => new CircuitBreaker({ ...BREAKER, isFailure: isUnreachable, opensAtOnce: isTimeout });

/**
 * Something that stands for a database now: an engine's (EngineDatabase, engine-database.ts),
 * opened on first use and afresh after a failed open or a close.
 */
export interface DatabaseHandle {
  current(): Database;
}

/** What a store is built on: its engine's database handle, or one given database (tests, the keys CLI). */
export type DatabaseSource = DatabaseHandle | Database;

/** The database `source` stands for now. */
export function databaseOf(source: DatabaseSource): Database {
  return 'ready' in source ? source : source.current();
}

/** The database `source` stands for, once its migrations are applied. */
export async function readyDatabase(source: DatabaseSource): Promise<Database> {
  const db = databaseOf(source);
  await db.ready;
  return db;
}

/**
 * A connection (SQLite) or a pool (PostgreSQL) of its own: the engine's database opens one
 * (engine-database.ts); tests and the keys CLI open others, as another process would, own
 * them and close them. A PostgreSQL one has a circuit of its own unless given one.
 */
export function openDatabase(target: DatabaseTarget, breaker?: CircuitBreaker): Database {
  return 'url' in target ? openPostgres(target, breaker ?? databaseBreaker()) : openSqlite(target.file);
}

/**
 * SQLite migrations running in this process, by file: a lock, not a service. Two
 * connections of one process to one file (two engines on one DATA_DIR, a test beside
 * an engine) would otherwise race: the second's BEGIN IMMEDIATE waits for the lock
 * synchronously, on the thread the first's migration needs to finish.
 */
const migratingFiles = new Map<string, Promise<unknown>>();

function openSqlite(file: string): Database {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Sqlite(file, { timeout: BUSY_TIMEOUT_MS });
  // WAL: the server reads while another process (the keys CLI) writes.
  walMode(sqlite);
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // A migration's BEGIN IMMEDIATE waits for the lock synchronously: a second
  // connection in this process must not wait there for the first (whose migration needs this thread).
  const previous = migratingFiles.get(file);
  const connecting = (async () => {
    await previous?.catch(() => undefined);
    const { connectSqlite } = await import('./connect.js');
    return connectSqlite(sqlite);
  })();
  migratingFiles.set(file, connecting);
  void connecting.finally(() => migratingFiles.get(file) === connecting && migratingFiles.delete(file)).catch(() => undefined);
  return handle('sqlite', connecting, sqlite);
}

/**
 * Switch a connection to WAL. Switching a fresh file takes an exclusive lock, and
 * SQLite answers SQLITE_BUSY at once, without its busy handler, to the second of two
 * processes booting together: that one retries until the first has switched (the
 * mode is then already WAL) or the busy timeout has passed. Only at boot, so the
 * synchronous wait blocks nothing else.
 */
function walMode(sqlite: BetterSqlite3.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
}

function openPostgres({ url, timeoutMs = DATABASE_TIMEOUT_MS }: PostgresTarget, breaker: CircuitBreaker): Database {
  return handle(
    'postgres',
    import('./connect.js').then(({ connectPostgres }) => connectPostgres(url, { timeoutMs, breaker })),
    undefined,
    breaker,
  );
}

function handle(dialect: Dialect, connecting: Promise<Kysely<Tables>>, sqlite?: BetterSqlite3.Database, breaker?: CircuitBreaker): Database {
  let kysely: Kysely<Tables> | undefined;
  let closed = false;
  let failed = false;
  const ready = connecting.then(
    (connected) => {
      kysely = connected;
    },
    // not opened (unreachable, or its migrations failed): every store waiting for it answers 503
    (err: unknown) => {
      throw err instanceof ApiError ? err : databaseUnavailable(err);
    },
  );
  // a failed migration is reported to every caller that waits for it, never as an unhandled rejection
  ready.catch(() => (failed = true));
  return {
    dialect,
    get kysely() {
      if (!kysely) throw new Error('The database is not ready: await its ready promise first');
      return kysely;
    },
    sqlite,
    ready,
    get closed() {
      return closed;
    },
    get failed() {
      return failed;
    },
    get circuit() {
      return breaker?.state;
    },
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      if (kysely) await kysely.destroy();
      else sqlite?.close();
    },
  };
}

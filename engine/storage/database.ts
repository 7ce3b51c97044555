import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The one SQLite database of a Manifold instance, `<DATA_DIR>/manifold.db`.
 *
 * One connection per process per file: better-sqlite3 is synchronous, so sharing
 * a connection costs nothing and keeps every module on the same transaction view.
 * WAL lets the server read while another process (the keys CLI) writes, and
 * busy_timeout makes a writer wait for the other's lock instead of failing.
 */

export type Db = Database.Database;

export const DATABASE_FILE = 'manifold.db';
const BUSY_TIMEOUT_MS = 5000;

const open = new Map<string, Db>();

export function databasePath(dataDir: string): string {
  return path.join(path.resolve(dataDir), DATABASE_FILE);
}

/** The shared connection to `<dataDir>/manifold.db`, created (with its directory) on first use. */
export function openDatabase(dataDir: string): Db {
  const file = databasePath(dataDir);
  const existing = open.get(file);
  if (existing?.open) return existing;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = connect(file);
  open.set(file, db);
  return db;
}

/** Close the shared connection for `dataDir` (at shutdown, or between tests). */
export function closeDatabase(dataDir: string): void {
  const file = databasePath(dataDir);
  open.get(file)?.close();
  open.delete(file);
}

/**
 * A separate, unshared connection to a database file: what another process would
 * have. Callers own it and close it. Used by tests of cross-process behaviour.
 */
export function connect(file: string): Db {
  const db = new Database(file, { timeout: BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    name TEXT PRIMARY KEY,
    applied_at TEXT NOT NULL
  )`);
  return db;
}

/**
 * Apply `sql` once per database, recorded under `name` in `migrations`. Names are
 * `<module>/<nnn>-<what>` (e.g. `auth/001-api-keys`); never edit an applied
 * migration, add a new name. Runs in an IMMEDIATE transaction so two processes
 * booting at once cannot both apply it. Returns true when it was applied now.
 */
export function migrate(db: Db, name: string, sql: string): boolean {
  const apply = db.transaction(() => {
    if (db.prepare('SELECT 1 FROM migrations WHERE name = ?').get(name)) return false;
    db.exec(sql);
    db.prepare('INSERT INTO migrations (name, applied_at) VALUES (?, ?)').run(name, new Date().toISOString());
    return true;
  });
  return apply.immediate();
}

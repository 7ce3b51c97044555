import path from 'node:path';
import { openDatabase, type Database, type Dialect } from '../../engine/platform/db/database.js';
import { startPostgres } from './postgres.js';

/**
 * The two databases a store must work on, for tests that run once per dialect:
 * SQLite in a temp directory, and PostgreSQL on a server of the test's own
 * (started once per test file, a fresh database per call).
 */
export interface TestDialect {
  name: Dialect;
  /** Where a new, empty database is: the `openDatabase` target. */
  target(t: Tap): Promise<{ url: string } | { file: string }>;
  /** A new, empty database of this dialect, migrated, closed at teardown. */
  open(t: Tap): Promise<Database>;
  /** Environment for an engine on a new, empty database of this dialect (serve() gives each its own DATA_DIR). */
  env(t: Tap): Promise<Record<string, string>>;
}

interface Tap {
  testdir(): string;
  teardown(fn: () => unknown): void;
}

export async function testDialects(t: { teardown(fn: () => unknown): void }): Promise<TestDialect[]> {
  const postgres = await startPostgres(t);
  const opener = (target: TestDialect['target']) => async (t: Tap) => {
    const db = openDatabase(await target(t));
    t.teardown(() => db.close());
    await db.ready;
    return db;
  };
  const sqliteTarget = async (t: Tap) => ({ file: path.join(t.testdir(), 'manifold.db') });
  const postgresTarget = async () => ({ url: await postgres.newDatabase() });
  return [
    { name: 'sqlite', target: sqliteTarget, open: opener(sqliteTarget), env: async () => ({}) },
    { name: 'postgres', target: postgresTarget, open: opener(postgresTarget), env: async () => ({ DATABASE_URL: await postgres.newDatabase() }) },
  ];
}

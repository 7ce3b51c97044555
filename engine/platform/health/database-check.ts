import { readyDatabase } from '../db/database.js';
import type { EngineDatabase } from '../db/engine-database.js';

/**
 * Does the database answer `select 1` now? PostgreSQL on a connection of its own, made
 * and closed per check (not the request path's pool, whose circuit may still be open
 * for a server that is back, nor a pool slot a busy instance needs); the SQLite file
 * through the engine's connection, which is in this process and answers or fails at once.
 */
export async function checkDatabase(database: EngineDatabase, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const { target } = database;
  if (!('url' in target)) {
    const db = await readyDatabase(database);
    db.sqlite!.prepare('select 1').get();
    return;
  }
  // pg loads with the first PostgreSQL check, as it does with the first query
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  // an error after the check gave up (the server going away mid-check) must not crash the process
  client.on('error', () => undefined);
  const stop = () => void client.end().catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    signal.removeEventListener('abort', stop);
    stop();
  }
}

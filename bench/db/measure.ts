/**
 * Shared by the database benches: wall and CPU time per call, and one run of a
 * bench on each dialect (SQLite in a temp directory, then a PostgreSQL server of
 * its own, started as the tests start theirs).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, type Database } from '../../engine/platform/db/database.js';
import { startPostgres } from '../../test/support/postgres.js';

/** Wall and CPU time per call of `run`, after a warm-up, one call at a time (a batch when `run` fans out itself). */
export async function measure(label: string, n: number, run: () => Promise<unknown>): Promise<void> {
  for (let i = 0; i < Math.min(n, 200); i++) await run(); // warm-up
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  const wall = (performance.now() - start) / n;
  const used = process.cpuUsage(cpu);
  console.log(
    `${label.padEnd(52)} ${(wall * 1000).toFixed(1).padStart(8)} µs wall ${((used.user + used.system) / n).toFixed(1).padStart(8)} µs CPU (this process)`,
  );
}

/** Teardowns for what a bench starts (PostgreSQL, Redis, engine processes), run in reverse at the end. */
export function benchLifecycle() {
  const teardowns: (() => unknown)[] = [];
  return {
    teardown: (fn: () => unknown) => void teardowns.push(fn),
    async end() {
      for (const fn of teardowns.reverse()) await fn();
    },
  };
}

/** `bench` on a new SQLite database, then on a new PostgreSQL one; it closes each database it is given. */
export async function onEachDialect(bench: (name: string, db: Database) => Promise<void>): Promise<void> {
  const life = benchLifecycle();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bench-db-'));
  try {
    await bench('sqlite', openDatabase({ file: path.join(dir, 'manifold.db') }));
    const postgres = await startPostgres(life);
    await bench('postgres', openDatabase({ url: await postgres.newDatabase() }));
  } finally {
    await life.end();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

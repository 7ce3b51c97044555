/**
 * Shared by the database benches: wall and CPU time per call of `run`, after a
 * warm-up, one call at a time (a batch when `run` fans out itself).
 */
import { performance } from 'node:perf_hooks';

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

/** Teardowns for what a bench starts (PostgreSQL), run in reverse at the end. */
export function benchLifecycle() {
  const teardowns: (() => unknown)[] = [];
  return {
    teardown: (fn: () => unknown) => void teardowns.push(fn),
    async end() {
      for (const fn of teardowns.reverse()) await fn();
    },
  };
}

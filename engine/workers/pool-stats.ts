/**
 * Queue and activity of the process-wide worker pools, for /metrics. Pools register
 * here when they start (on first use), so reading the figures never loads or starts
 * a pool (importing the render pool would load Skia and sharp).
 */
export interface PoolStats {
  /** Tasks a worker is running. */
  active: number;
  /** Tasks waiting for a worker. */
  queued: number;
}

const pools = new Map<string, () => PoolStats>();

/** Called by a pool's creator; a pool created again after close replaces its entry. */
export function registerPoolStats(name: string, read: () => PoolStats): void {
  pools.set(name, read);
}

/** Called when a pool closes, so a closed pool reports nothing. */
export function unregisterPoolStats(name: string): void {
  pools.delete(name);
}

/** The figures of every started pool, by name. */
export function poolStats(): [string, PoolStats][] {
  return [...pools].map(([name, read]) => [name, read()]);
}

import { RenderPool } from './render-pool.js';
import { RenderCache } from './render-cache.js';
import { onShutdown } from '../shutdown.js';
import { registerPoolStats, unregisterPoolStats } from '../workers/pool-stats.js';

/**
 * One render pool and one render cache per process, shared by every effect
 * endpoint (a pool per endpoint would mean hundreds of idle threads).
 */
let pool: RenderPool | undefined;
let cache: RenderCache | undefined;

/** The pool, created on first use from EFFECTS_THREADS / EFFECTS_QUEUE in the config's env. */
export function renderPool(env: Readonly<Record<string, string>> = {}): RenderPool {
  if (!pool) {
    const started = new RenderPool({ threads: intEnv(env.EFFECTS_THREADS), queue: intEnv(env.EFFECTS_QUEUE) });
    pool = started;
    registerPoolStats('render', () => started.stats);
    onShutdown(closeRenderPool);
  }
  return pool;
}

export function renderCache(): RenderCache {
  cache ??= new RenderCache();
  return cache;
}

/** Stops the workers (server shutdown, end of a test file). */
export async function closeRenderPool(): Promise<void> {
  const p = pool;
  pool = undefined;
  if (p) unregisterPoolStats('render');
  await p?.close();
}

function intEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

import { RenderPool } from './render-pool.js';
import { RenderCache } from './render-cache.js';
import { onShutdown } from '../shutdown.js';

/**
 * One render pool and one render cache per process, shared by every effect
 * endpoint (a pool per endpoint would mean hundreds of idle threads).
 */
let pool: RenderPool | undefined;
let cache: RenderCache | undefined;

/** The pool, created on first use from EFFECTS_THREADS / EFFECTS_QUEUE in the config's env. */
export function renderPool(env: Readonly<Record<string, string>> = {}): RenderPool {
  if (!pool) {
    pool = new RenderPool({ threads: intEnv(env.EFFECTS_THREADS), queue: intEnv(env.EFFECTS_QUEUE) });
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
  await p?.close();
}

function intEnv(value: string | undefined): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

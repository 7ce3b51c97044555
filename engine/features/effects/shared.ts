import { RenderPool } from './render-pool.js';
import { RenderCache } from './render-cache.js';
import type { EngineServices } from '../../contract/call.js';

/**
 * One render pool and one render cache per engine (engine/platform/scope.ts), shared by every
 * effect endpoint (a pool per endpoint would mean hundreds of idle threads).
 */

/** The pool, created on first use, sized by EFFECTS_THREADS / EFFECTS_QUEUE (checked by loadConfig). */
export function renderPool({ config, scope }: EngineServices): RenderPool {
  return scope.own('render', () => new RenderPool({ threads: config?.effects?.threads, queue: config?.effects?.queue, idleMs: config?.memory?.workerIdleMs }), {
    close: (pool) => pool.close(),
    stats: (pool) => pool.stats,
  });
}

export function renderCache({ config, scope }: EngineServices): RenderCache {
  // RENDER_CACHE_MAX_BYTES, by MEMORY_PROFILE: the renders themselves, in the main thread
  return scope.own('render cache', () => new RenderCache(config?.memory?.renderCacheMaxBytes));
}

/** Stops the workers now (the engine's close does it too). */
export async function closeRenderPool({ scope }: EngineServices): Promise<void> {
  await scope.release('render');
}

import { RenderPool } from './render-pool.js';
import { RenderCache } from './render-cache.js';
import type { EngineServices } from '../../contract/call.js';
import { sharedWorkers } from '../../platform/workers/shared-workers.js';

/**
 * One render pool and one render cache per engine (engine/platform/scope.ts), shared by every
 * effect endpoint (a pool per endpoint would mean hundreds of idle threads).
 */

/** The pool, created on first use, on the workers it shares with the code pool (EFFECTS_THREADS with CPU_THREADS size them); EFFECTS_QUEUE (checked by loadConfig). */
export function renderPool(services: EngineServices): RenderPool {
  const { config, scope } = services;
  return scope.own('render', () => new RenderPool({ queue: config?.effects?.queue, workers: sharedWorkers(services) }), {
    close: (pool) => pool.close(),
    stats: (pool) => pool.stats,
  });
}

export function renderCache({ config, scope }: EngineServices): RenderCache {
  // RENDER_CACHE_MAX_BYTES, by MEMORY_PROFILE: the renders themselves, in the main thread
  return scope.own('render cache', () => new RenderCache(config?.memory?.renderCacheMaxBytes));
}

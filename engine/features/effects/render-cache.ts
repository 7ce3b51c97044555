import { LRUCache } from 'lru-cache';
import type { RenderResult } from './render.js';
import { MEMORY_PROFILES } from '../../platform/settings/memory-profile.js';

/**
 * Finished renders by request hash, bounded by bytes, with single-flight: while a
 * render runs, identical requests wait for it instead of starting their own.
 */
export class RenderCache {
  private readonly done: LRUCache<string, RenderResult>;
  private readonly running = new Map<string, Promise<RenderResult>>();

  /** `maxBytes`: RENDER_CACHE_MAX_BYTES (config.memory), the default profile's when none is given. */
  constructor(maxBytes: number = MEMORY_PROFILES.default.renderCacheMaxBytes) {
    this.done = new LRUCache<string, RenderResult>({ maxSize: maxBytes, sizeCalculation: (r) => Math.max(1, r.data.length) });
  }

  get(key: string, render: () => Promise<RenderResult>): Promise<RenderResult> {
    const hit = this.done.get(key);
    if (hit) return Promise.resolve(hit);
    let pending = this.running.get(key);
    if (!pending) {
      pending = render()
        .then((result) => {
          this.done.set(key, result);
          return result;
        })
        .finally(() => this.running.delete(key));
      this.running.set(key, pending);
    }
    return pending;
  }

  get size(): number {
    return this.done.size;
  }
}

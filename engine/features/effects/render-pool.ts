import { BoundedPool } from '../../platform/workers/pool.js';
import type { PoolStats } from '../../platform/workers/pool-stats.js';
import type { WorkerJob } from './render-worker.js';
import { siblingModule } from '../../core/root.js';
import type { RenderResult } from './render.js';

export interface PoolOptions {
  /** Worker threads; defaults to the number of cores. */
  threads?: number;
  /**
   * Jobs allowed to wait per worker (EFFECTS_QUEUE, as documented): the pool holds
   * threads × queue waiting jobs, and beyond that renders answer 503 overloaded.
   */
  queue?: number;
  /** WORKER_IDLE_MS: an idle worker exits after this, with the memory Skia and libvips held in it. */
  idleMs?: number;
}

export const DEFAULT_QUEUE_PER_WORKER = 16;
/**
 * Wall-clock limit of one render once a worker runs it: a backstop (renders take 20–500 ms
 * on a quiet core), generous because a loaded host stretches wall-clock time. Past it the
 * worker is replaced and the caller gets 422 too_complex.
 */
export const RENDER_TASK_MS = 30_000;

/**
 * Renders and image manipulations off the event loop (Skia drawing and encoding are CPU
 * bound), on the engine's one bounded pool implementation (platform/workers/pool.ts): a
 * bounded queue (503 overloaded beyond it) so a burst is refused instead of piling up memory
 * and latency, a wall-clock limit per render, V8 limits per worker, and errors that keep
 * their status and code across the thread boundary.
 */
export class RenderPool {
  private readonly pool: BoundedPool;
  readonly threads: number;
  /** Jobs that may wait, all workers together. */
  readonly maxQueue: number;

  constructor(options: PoolOptions = {}) {
    this.pool = new BoundedPool({
      filename: siblingModule(import.meta.url, 'render-worker'),
      name: 'The image renderers',
      threads: options.threads,
      queuePerThread: options.queue ?? DEFAULT_QUEUE_PER_WORKER,
      taskMs: RENDER_TASK_MS,
      // a queue of renders drains at a few per second per worker: wait longer than the code pool's 10 s
      queueWaitMs: 30_000,
      // a 16 MiB young generation (32 held ~16 MiB more per worker): renders allocate little JavaScript
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      idleMs: options.idleMs,
    });
    this.threads = this.pool.threads;
    this.maxQueue = this.pool.stats.queueLimit;
  }

  async render(job: WorkerJob, signal?: AbortSignal): Promise<RenderResult> {
    const result = await this.pool.run<RenderResult>(job, { signal });
    // Buffers come back as plain Uint8Arrays after the structured clone.
    return { ...result, data: Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength) };
  }

  /** Jobs running and waiting (for /metrics). */
  get stats(): PoolStats {
    return this.pool.stats;
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

import os from 'node:os';
import { Piscina } from 'piscina';
import { overloaded } from '../../core/errors.js';
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
}

/**
 * Worker-thread pool for renders and image manipulations: Skia drawing and encoding are CPU bound and
 * would block the event loop. The queue is bounded so a burst is refused with
 * 503 instead of piling up memory and latency.
 */
export const DEFAULT_QUEUE_PER_WORKER = 16;

export class RenderPool {
  private readonly pool: Piscina;
  readonly threads: number;
  /** Jobs that may wait, all workers together. */
  readonly maxQueue: number;

  constructor(options: PoolOptions = {}) {
    this.threads = options.threads ?? Math.max(1, os.availableParallelism());
    // piscina's maxQueue is the pool's total
    this.maxQueue = this.threads * (options.queue ?? DEFAULT_QUEUE_PER_WORKER);
    this.pool = new Piscina({
      filename: siblingModule(import.meta.url, 'render-worker'),
      minThreads: 1,
      maxThreads: this.threads,
      maxQueue: this.maxQueue,
      idleTimeout: 60_000,
    });
  }

  /** Jobs running or waiting, counted here: piscina reports only the waiting ones. */
  private inFlight = 0;

  async render(job: WorkerJob, signal?: AbortSignal): Promise<RenderResult> {
    this.inFlight += 1;
    try {
      const result: RenderResult = await this.pool.run(job, { signal });
      // Buffers come back as plain Uint8Arrays after the structured clone.
      return { ...result, data: Buffer.from(result.data.buffer, result.data.byteOffset, result.data.byteLength) };
    } catch (err) {
      if (err instanceof Error && /queue is at limit/i.test(err.message)) throw overloaded('The image renderer is busy');
      throw err;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Jobs running and waiting (for /metrics). */
  get stats(): PoolStats {
    const queued = this.pool.queueSize;
    return { active: Math.max(0, this.inFlight - queued), queued, workers: this.threads, queueLimit: this.maxQueue };
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

import os from 'node:os';
import type { ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { siblingModule } from '../../core/root.js';
import type { Config } from '../config.js';
import type { EngineScope } from '../scope.js';
import { MEMORY_PROFILES } from '../settings/memory-profile.js';

/**
 * The worker threads the code pool and the render pool share: as many as the cores (or the
 * larger of CPU_THREADS and EFFECTS_THREADS), not a set per feature. Two sets of two
 * workers on a 2-core host meant four isolates alive between bursts (~50 MiB of V8 pages
 * each, bench/memory) for two cores' worth of work. Each BoundedPool on them keeps its
 * own name, queue, time limits, typed errors and stats; a worker imports a pool's task
 * module the first time it runs one of its tasks (worker-entry.ts), so a worker that only
 * drew holds no code tools. Idle workers retire after WORKER_IDLE_MS.
 */
export interface SharedWorkersOptions {
  /** Worker threads; defaults to the number of cores. */
  threads?: number;
  /** Per-worker V8 limits; a worker that exceeds them is replaced. */
  resourceLimits?: ResourceLimits;
  idleMs?: number;
  /** Added to the workers' nice value so the event loop wins the CPU over them; default 10. */
  niceIncrement?: number;
}

export class SharedWorkers {
  readonly piscina: Piscina;
  readonly threads: number;

  constructor(options: SharedWorkersOptions = {}) {
    this.threads = options.threads ?? Math.max(1, os.availableParallelism());
    this.piscina = new Piscina({
      filename: siblingModule(import.meta.url, 'worker-entry'),
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: options.idleMs ?? MEMORY_PROFILES.default.workerIdleMs,
      resourceLimits: options.resourceLimits,
      niceIncrement: options.niceIncrement ?? 10,
    });
  }

  close(): Promise<void> {
    return this.piscina.destroy();
  }
}

/** V8 heap per worker (CPU_TASK_MEMORY_MB) when unset. */
export const DEFAULT_TASK_MEMORY_MB = 256;

/** The engine's shared workers (in its scope), started on first use. */
export function sharedWorkers({ config, scope }: { config?: Config; scope: EngineScope }): SharedWorkers {
  return scope.own(
    'workers',
    () => {
      const memory = config?.cpu?.taskMemoryMb ?? DEFAULT_TASK_MEMORY_MB;
      const set = [config?.cpu?.threads, config?.effects?.threads].filter((n): n is number => n !== undefined);
      return new SharedWorkers({
        threads: set.length ? Math.max(...set) : undefined,
        // the young generation at most 16 MiB: each live worker holds what it grew to (32 held ~16 MiB more)
        resourceLimits: { maxOldGenerationSizeMb: memory, maxYoungGenerationSizeMb: Math.min(16, Math.ceil(memory / 8)), stackSizeMb: 4 },
        idleMs: config?.memory?.workerIdleMs,
      });
    },
    { close: (workers) => workers.close() },
  );
}

import { BoundedPool } from '../../platform/workers/pool.js';
import { siblingModule } from '../../core/root.js';
import type { CpuPoolSettings } from '../../platform/config.js';
import type { EngineServices } from '../../contract/call.js';
import { FileOutput } from '../../contract/file-output.js';
import type { CpuResult, CpuTask } from './cpu-task.js';

/**
 * The code pool: one process-wide BoundedPool in which every `cost: cpu` handler runs
 * (text tools, regex, diff, parsers, QR decoding…), so no input can stall the event
 * loop. Sized and limited from the environment (checked by loadConfig, used when the pool starts):
 * CPU_THREADS (default: cores), CPU_QUEUE (waiting tasks, default 8 per thread),
 * CPU_TASK_MS (wall-clock limit per task, default 5000 — a backstop behind the
 * input limits, generous because a loaded host stretches wall-clock time; an endpoint's
 * `limits.taskMs` overrides it) and CPU_TASK_MEMORY_MB (V8 heap per worker, default 256).
 */
export const DEFAULT_TASK_MS = 5000;

/** The engine's code pool (in its scope), started on first use. */
export function cpuPool({ config, scope }: EngineServices): BoundedPool {
  return scope.own('cpu', () => startCpuPool(config?.cpu ?? {}, config?.memory?.workerIdleMs), {
    close: (pool) => pool.close(),
    stats: (pool) => pool.stats,
  });
}

function startCpuPool(settings: CpuPoolSettings, idleMs: number | undefined): BoundedPool {
  const memory = settings.taskMemoryMb ?? 256;
  return new BoundedPool({
    filename: siblingModule(import.meta.url, 'cpu-worker'),
    name: 'The text and code tools',
    threads: settings.threads,
    queue: settings.queue,
    taskMs: settings.taskMs ?? DEFAULT_TASK_MS,
    // the young generation at most 16 MiB: each live worker holds what it grew to (32 by the old memory/8)
    resourceLimits: { maxOldGenerationSizeMb: memory, maxYoungGenerationSizeMb: Math.min(16, Math.ceil(memory / 8)), stackSizeMb: 4 },
    idleMs,
  });
}

/** Run a pure handler (`<category>/<name>[#export]`) in the pool; a generated file comes back as a FileOutput. */
export async function runPure(task: CpuTask, options: { signal?: AbortSignal; taskMs?: number; services: EngineServices }): Promise<unknown> {
  const { services, ...run } = options;
  const result = await cpuPool(services).run<CpuResult>(task, run);
  if ('file' in result) {
    const { data, ext, contentType } = result.file;
    // Buffers arrive as plain Uint8Arrays after the structured clone
    return new FileOutput(Buffer.from(data.buffer, data.byteOffset, data.byteLength), ext, contentType);
  }
  return result.value;
}

/** Stops the workers now (the engine's close does it too). */
export async function closeCpuPool({ scope }: EngineServices): Promise<void> {
  await scope.release('cpu');
}

import os from 'node:os';
import { MessageChannel, type ResourceLimits } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { ApiError, overloaded, tooComplex, unavailable } from '../../core/errors.js';
import type { PoolStats } from './pool-stats.js';
import { MEMORY_PROFILES } from '../settings/memory-profile.js';
import { TASK_PICKED, TASK_STARTED, fromWire, type TaskEnvelope, type WireOutcome } from './task.js';

/**
 * A bounded worker-thread pool (piscina) for work that would block the event loop.
 * What makes it bounded: a queue limit (503 `overloaded` beyond it), a wall-clock
 * limit per task counted from the moment a worker starts it, after loading its modules
 * (the worker is terminated and replaced, and the caller gets 422 `too_complex`), a
 * queue-wait limit (503 `overloaded` when no worker took the task in time, once the
 * pool is warm), and V8 heap and stack
 * limits per worker (a task that exceeds them kills only its worker: 422).
 * Workers export their entry through `boundedTask` (task.ts), which reports the start
 * and carries ApiErrors across the thread boundary with their status and code.
 */
export interface BoundedPoolOptions {
  /** The worker module (a file URL; see root.ts siblingModule). */
  filename: string;
  /** Names the work in 503/422 messages, e.g. "The text tools". */
  name: string;
  /** Worker threads; defaults to the number of cores. */
  threads?: number;
  /** Tasks allowed to wait for a free worker, all threads together; defaults to `queuePerThread` per thread. */
  queue?: number;
  /** Tasks allowed to wait per thread when `queue` is unset; default 8. */
  queuePerThread?: number;
  /** Per-worker V8 limits; a worker that exceeds them is replaced. */
  resourceLimits?: ResourceLimits;
  /** Default wall-clock limit of one task once started. */
  taskMs: number;
  /** Added to the workers' nice value so the event loop wins the CPU over them; default 10. */
  niceIncrement?: number;
  /** Longest a task may wait in the queue before 503 overloaded; defaults to 10 s. */
  queueWaitMs?: number;
  /**
   * A worker with nothing to do for this long exits (WORKER_IDLE_MS; default 2 s), every one
   * of them: what a worker holds (its heap, loaded modules, Skia's and libvips' memory, a
   * neural network) goes back to the system, and the next task starts a worker again.
   */
  idleMs?: number;
  /** Handed to each worker as `workerData` (e.g. how many threads its engine may use). */
  workerData?: unknown;
}

export interface RunOptions {
  /** The caller's signal (client gone, endpoint timeout): aborts the task wherever it is. */
  signal?: AbortSignal;
  /** This task's wall-clock limit once started (defaults to the pool's). */
  taskMs?: number;
  /** This task's queue-wait limit (defaults to the pool's). */
  queueWaitMs?: number;
  transferList?: Transferable[];
}

export class BoundedPool {
  private readonly pool: Piscina;
  readonly threads: number;
  /** Tasks running or waiting at most (threads + queue): counted here, as piscina's maxQueue does not count tasks that carry an AbortSignal. */
  private readonly capacity: number;
  private inFlight = 0;
  /** A worker has picked up a task: from then on, waiting in the queue is limited. */
  private warm = false;
  /** How to fail each task in flight: a worker that cannot start fails them all (see the 'error' listener). */
  private readonly failing = new Set<(error: ApiError) => void>();

  constructor(private readonly options: BoundedPoolOptions) {
    this.threads = options.threads ?? Math.max(1, os.availableParallelism());
    this.capacity = this.threads + (options.queue ?? this.threads * (options.queuePerThread ?? 8));
    this.pool = new Piscina({
      filename: options.filename,
      minThreads: 0,
      maxThreads: this.threads,
      idleTimeout: options.idleMs ?? MEMORY_PROFILES.default.workerIdleMs,
      resourceLimits: options.resourceLimits,
      workerData: options.workerData,
      // workers yield the CPU to the event loop thread first (Linux thread priority, via @napi-rs/nice)
      niceIncrement: options.niceIncrement ?? 10,
    });
    // piscina reports a worker that fails while it starts (its module cannot load: a package
    // left out, a broken build) as an 'error' event, which unheard would end the process:
    // the tasks in flight fail with 503 instead, and the server goes on
    this.pool.on('error', (err: Error) => {
      const error = unavailable(`${options.name} cannot start a worker (${err.message})`);
      for (const fail of this.failing) fail(error);
    });
  }

  /** Run one task; resolves with the worker's value, rejects with an ApiError for a bounded failure. */
  async run<T>(task: unknown, options: RunOptions = {}): Promise<T> {
    if (this.inFlight >= this.capacity) throw overloaded(`${this.options.name} are busy`);
    this.inFlight += 1;
    try {
      return await this.runCounted<T>(task, options);
    } finally {
      this.inFlight -= 1;
    }
  }

  private async runCounted<T>(task: unknown, options: RunOptions): Promise<T> {
    const taskMs = options.taskMs ?? this.options.taskMs;
    const queueWaitMs = options.queueWaitMs ?? this.options.queueWaitMs ?? 10_000;
    const stop = new AbortController();
    let why: ApiError | undefined;
    const fail = (error: ApiError) => {
      why ??= error;
      stop.abort(error);
    };
    this.failing.add(fail);
    // waiting for a worker: limited, so a flood is refused instead of piling up; not
    // counted before any worker has started, nor when every worker has retired while idle
    // (a cold start on a busy host is no flood)
    let timer = this.warm && this.pool.threads.length > 0 ? setTimeout(() => fail(overloaded(`${this.options.name} are busy`)), queueWaitMs) : undefined;
    let started = false;
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (message) => {
      if (message === TASK_PICKED) {
        // loading the task's modules is ours: bounded by the caller's deadline only
        this.warm = true;
        clearTimeout(timer);
      } else if (message === TASK_STARTED) {
        started = true;
        timer = setTimeout(() => fail(tooComplex(`the work took longer than ${taskMs} ms`)), taskMs);
        port1.close();
      }
    });
    const onCallerAbort = () => stop.abort(options.signal!.reason);
    if (options.signal?.aborted) onCallerAbort();
    else options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const envelope: TaskEnvelope = { task, port: port2 };
    try {
      const outcome: WireOutcome = await this.pool.run(envelope, { signal: stop.signal, transferList: [port2, ...(options.transferList ?? [])] as never });
      // a worker ran it (its 'picked' message may not have been read before the port closed)
      this.warm = true;
      return fromWire(outcome) as T;
    } catch (err) {
      // a task stopped while running takes its worker with it (piscina terminates it): the
      // next task may wait for a fresh worker's start, which the queue-wait limit must not
      // count on a loaded host, as for the first start
      if (started && (why || options.signal?.aborted || isOutOfMemory(err))) this.warm = false;
      if (why) throw why;
      if (options.signal?.aborted) throw options.signal.reason ?? err;
      if (isOutOfMemory(err)) throw tooComplex('the work needed more memory than a task may use');
      throw err;
    } finally {
      this.failing.delete(fail);
      clearTimeout(timer);
      port1.close();
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /** Tasks waiting for a worker. */
  get queueSize(): number {
    return Math.max(0, this.inFlight - this.threads);
  }

  /** Tasks running and waiting (for /metrics). */
  get stats(): PoolStats {
    return { active: Math.min(this.inFlight, this.threads), queued: this.queueSize, workers: this.threads, queueLimit: this.capacity - this.threads };
  }

  /** Worker threads alive now: 0 once every worker has retired while idle. */
  get alive(): number {
    return this.pool.threads.length;
  }

  /** Settles once no worker is alive: each has retired while idle (or the pool was closed). */
  async retired(): Promise<void> {
    // piscina announces a worker's end before it leaves the list: look again on the next turn
    while (this.alive > 0) await new Promise((resolve) => this.pool.once('workerDestroy', () => setImmediate(resolve)));
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}

const isOutOfMemory = (err: unknown) => (err as { code?: string } | null)?.code === 'ERR_WORKER_OUT_OF_MEMORY';

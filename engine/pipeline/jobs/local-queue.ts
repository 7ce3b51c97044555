import { EventEmitter } from 'node:events';
import { ApiError } from '../../core/errors.js';
import type { Logger } from '../../platform/log.js';
import type { JobHandlers, JobQueue } from './queue.js';
import { WorkerStopping } from './runner.js';
import { isFinished, type JobStore } from './store.js';

/**
 * The job queue of a single instance without Redis (the embedded default): jobs run
 * in this process, `concurrency` at a time, in the order they came (a cancelled one leaves
 * its place in the line). The records are
 * the queue's memory: at start, every unfinished job (queued, or cut off by the last
 * shutdown) is run again, so jobs survive a restart here too. Webhook retries wait in
 * timers; a delivery still waiting at shutdown is not retried after it (BullMQ keeps
 * them in Redis).
 */
export class LocalJobQueue implements JobQueue {
  readonly #finished = new EventEmitter().setMaxListeners(0);
  /** Jobs queued or running here, so a job added twice (resumed and added) runs once. */
  readonly #taken = new Set<string>();
  /** Ids waiting for a slot, in the order they came; ids added before work() wait here too. */
  readonly #waiting: string[] = [];
  #running = 0;
  readonly #retries = new Set<NodeJS.Timeout>();
  #handlers?: JobHandlers;
  #closed = false;

  constructor(
    private readonly store: JobStore,
    private readonly options: { concurrency: number; webhookAttempts: number; webhookBackoffMs: number; logger: Logger },
  ) {}

  async add(id: string): Promise<void> {
    this.#take(id);
  }

  async work(handlers: JobHandlers): Promise<void> {
    this.#handlers = handlers;
    for (const id of await this.store.unfinished()) this.#take(id);
    this.#next();
  }

  #take(id: string): void {
    if (this.#closed || this.#taken.has(id)) return;
    this.#taken.add(id);
    this.#waiting.push(id);
    this.#next();
  }

  /** Start waiting jobs while slots are free. */
  #next(): void {
    while (this.#handlers && !this.#closed && this.#running < this.options.concurrency && this.#waiting.length > 0) {
      const id = this.#waiting.shift()!;
      this.#running++;
      void this.#handlers
        .run(id)
        // a job cut off by shutdown stays unfinished and runs at the next start: nothing to report
        .catch((err: unknown) => err instanceof WorkerStopping || this.options.logger.error({ msg: 'job runner failed', jobId: id, err }))
        .finally(() => {
          this.#running--;
          this.#left(id);
          this.#next();
        });
    }
  }

  /** The job is neither waiting nor running here any more: whoever waits for it is told. */
  #left(id: string): void {
    this.#taken.delete(id);
    this.#finished.emit(id);
  }

  /** Out of the line if it waits; stopped by the runner if it runs (which then frees its slot). */
  async cancel(id: string): Promise<void> {
    const at = this.#waiting.indexOf(id);
    if (at >= 0) {
      this.#waiting.splice(at, 1);
      this.#left(id);
    } else this.#handlers?.cancel(id);
  }

  finished(id: string, timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#finished.off(id, done);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#finished.off(id, done);
        reject(new ApiError('upstream_timeout', `No answer within ${timeoutMs} ms (the job goes on: GET /api/jobs/${id})`));
      }, timeoutMs);
      this.#finished.on(id, done);
      // it may have finished before anyone listened
      void this.store.get(id).then((job) => job && isFinished(job.status) && done(), reject);
    });
  }

  /** Each delivery is a promise of its own here (no shared slots), so a receiver that hangs delays no other. */
  async addWebhook(id: string): Promise<void> {
    this.#attempt(id, 1);
  }

  /** Alone with its records (resumed whole at start): always this instance's turn. */
  async lead(): Promise<boolean> {
    return true;
  }

  #attempt(id: string, attempt: number): void {
    if (this.#closed || !this.#handlers) return;
    this.#handlers.deliver(id).catch((err: Error) => {
      const { webhookAttempts, webhookBackoffMs, logger } = this.options;
      if (attempt >= webhookAttempts) return void logger.error({ msg: 'webhook given up', jobId: id, attempts: attempt, error: err.message });
      const retry = setTimeout(
        () => {
          this.#retries.delete(retry);
          this.#attempt(id, attempt + 1);
        },
        webhookBackoffMs * 2 ** (attempt - 1),
      );
      this.#retries.add(retry);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const retry of this.#retries) clearTimeout(retry);
    this.#retries.clear();
  }
}

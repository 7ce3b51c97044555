import type { Logger } from '../../platform/log.js';
import type { JobQueue } from './queue.js';
import type { JobError, JobStore } from './store.js';

/**
 * Keeps job records and the queue in step across crashes. Recording a job (the database)
 * and queueing it (Redis) are two steps in two systems: an instance killed between them
 * leaves a record `queued` that no worker will ever take, and a worker's give-up that could
 * not be recorded (the database away) leaves one `active` for ever. Either would count
 * against its key's limit of unfinished jobs and block the key.
 *
 * Every JOBS_RECONCILE_MS one instance (the queue's lead(): with Redis a key set only if
 * absent, with an expiry shorter than the period, so two instances never sweep at once and
 * a dead instance's turn passes to another within a period) looks at unfinished records:
 * - older than JOBS_MAX_AGE_MS: failed as expired, whatever the queue says (the store has
 *   stopped counting them against their key already);
 * - older than one period, on a queue that can tell (BullMQ): a `queued` record the queue
 *   has never seen is queued again, under its own id, so a first add that landed after all
 *   makes nothing run twice (the record is the outbox); any other record the queue no
 *   longer holds (it ran or gave up on it, and the end could not be recorded: the database
 *   away then) is failed, once it has been finished in the queue for a period (the worker that
 *   saw it end records how, just after the queue knows).
 * The in-process queue has no other instance to miss work from: it resumes every
 * unfinished record at start (local-queue.ts), so only expiry applies there.
 */
const BATCH = 200;

export interface ReconcilerOptions {
  periodMs: number;
  maxAgeMs: number;
  logger: Logger;
  /** Record the job failed with `error` (if still unfinished) and send its webhook. */
  fail(id: string, error: JobError): Promise<void>;
}

/** What one sweep did (ids), for tests and the log. */
export interface Sweep {
  requeued: string[];
  failed: string[];
}

export class JobReconciler {
  #timer?: NodeJS.Timeout;
  #sweeping?: Promise<Sweep>;
  #reported = false;

  constructor(
    private readonly store: JobStore,
    private readonly queue: JobQueue,
    private readonly options: ReconcilerOptions,
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.sweep(), this.options.periodMs).unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** One sweep if it is this instance's turn (a sweep still running is joined, not doubled). Never rejects: trouble is logged once until a sweep works. */
  sweep(): Promise<Sweep> {
    this.#sweeping ??= this.#sweep()
      .then(
        (done) => {
          this.#reported = false;
          if (done.requeued.length || done.failed.length) this.options.logger.info({ msg: 'jobs reconciled', ...done });
          return done;
        },
        (err: Error) => {
          if (!this.#reported) this.options.logger.error({ msg: 'job reconciler: sweep failed', error: err.message });
          this.#reported = true;
          return { requeued: [], failed: [] };
        },
      )
      .finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  async #sweep(): Promise<Sweep> {
    const { periodMs, maxAgeMs } = this.options;
    const done: Sweep = { requeued: [], failed: [] };
    // the turn lasts a little less than a period, so the instance that keeps it takes it again on its next tick
    if (!(await this.queue.lead(Math.max(1, Math.floor(periodMs * 0.9))))) return done;

    const expired: JobError = {
      error: 'upstream_timeout',
      message: `The job did not finish within ${maxAgeMs} ms of being submitted (JOBS_MAX_AGE_MS)`,
      status: 504,
    };
    for (const { id } of await this.store.unfinishedOlderThan(maxAgeMs, BATCH)) {
      await this.options.fail(id, expired);
      done.failed.push(id);
    }

    if (!this.queue.states) return done;
    const stale = (await this.store.unfinishedOlderThan(periodMs, BATCH)).filter((r) => !done.failed.includes(r.id));
    if (stale.length === 0) return done;
    const states = await this.queue.states(
      stale.map((r) => r.id),
      periodMs,
    );
    const lost: JobError = {
      error: 'internal_error',
      message: 'The job was lost: the queue no longer holds it, and how it ended could not be recorded',
      status: 500,
    };
    for (const { id, status } of stale) {
      const state = states.get(id) ?? 'absent';
      if (state === 'held') continue;
      if (status === 'queued' && state === 'absent') {
        await this.queue.add(id);
        done.requeued.push(id);
      } else {
        await this.options.fail(id, lost);
        done.failed.push(id);
      }
    }
    return done;
  }
}

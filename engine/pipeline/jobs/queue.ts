/**
 * What hands jobs to workers: BullMQ on Redis when REDIS_URL is set (bullmq-queue.ts),
 * otherwise a queue in this process (local-queue.ts), the embedded default. Either way
 * the queue carries only job ids; the records (engine/pipeline/jobs/store.ts) hold the rest.
 */
/**
 * Where a job is in the queue: `held` waiting, delayed or running; `finished` run or given up
 * (BullMQ keeps finished entries a day); `absent` never added, or removed long ago.
 */
export type QueueState = 'held' | 'finished' | 'absent';

export interface JobHandlers {
  /** Run the job (engine/pipeline/jobs/runner.ts); resolves once it is recorded finished, or left unfinished to run again. */
  run(id: string): Promise<void>;
  /** One webhook attempt for a finished job; throws to be retried with backoff. */
  deliver(id: string): Promise<void>;
  /**
   * The queue gave up on a job it could not get an answer for (BullMQ: its workers died
   * running it too often, or its attempts ran out): record it failed with `message`, or
   * it would stay unfinished forever, counting against its key's limit.
   */
  givenUp(id: string, message: string): Promise<void>;
  /** Stop the job if this worker is running it (its record is already `cancelled`); nothing otherwise. */
  cancel(id: string): void;
}

export interface JobQueue {
  /** Hand a recorded job to the workers. */
  add(id: string): Promise<void>;
  /**
   * Withdraw a job whose record was just made `cancelled`: taken out of the queue while it
   * waits, and stopped by the worker running it, on whichever instance that is
   * (JobHandlers.cancel). A synchronous call waiting for it (finished()) stops waiting.
   */
  cancel(id: string): Promise<void>;
  /**
   * Queue the webhook of a finished job: attempted until a 2xx, at most `WEBHOOK_ATTEMPTS` times,
   * with exponential backoff. `receiver` (the callback URL's origin) keeps each receiver's
   * deliveries to their own share of the workers (WEBHOOK_RECEIVER_CONCURRENCY).
   */
  addWebhook(id: string, receiver: string): Promise<void>;
  /**
   * Where each of `ids` is in the queue, for the reconciler (reconcile.ts). Absent on a queue
   * that cannot see other instances' work (the in-process queue, whose records are resumed
   * whole at start instead). A job that finished less than `graceMs` ago counts as held: the
   * worker that saw it end may still be recording how (a give-up is recorded after the queue
   * has failed the job), and that record, not "lost", is the job's answer.
   */
  states?(ids: string[], graceMs: number): Promise<Map<string, QueueState>>;
  /** Take or keep, for `ttlMs`, the one turn among instances to reconcile (true: this instance's turn). */
  lead(ttlMs: number): Promise<boolean>;
  /** Whether the queue's own store answers now (readiness: BullMQ's Redis); absent for the in-process queue, which has none. */
  ping?(): Promise<void>;
  /**
   * Settles once the job has finished, run by whichever worker took it (a synchronous
   * call waiting for it); rejects with a 504 after `timeoutMs`.
   */
  finished(id: string, timeoutMs: number): Promise<void>;
  /** Start taking jobs and webhook deliveries (roles `worker` and `all`). */
  work(handlers: JobHandlers): Promise<void>;
  /** Stop taking work and release connections; jobs left running are run again later. */
  close(): Promise<void>;
}

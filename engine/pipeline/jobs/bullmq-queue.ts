import crypto from 'node:crypto';
import { EventEmitter } from 'node:events';
import { DelayedError, Job, Queue, QueueEvents, Worker } from 'bullmq';
import { ApiError } from '../../core/errors.js';
import type { Logger } from '../../platform/log.js';
import { connectRedis, type RedisConnection } from '../../platform/redis.js';
import { subscribeRedis, type RedisSubscriber } from '../../platform/redis-subscriber.js';
import type { JobHandlers, JobQueue, QueueState } from './queue.js';
import { isFinished, type JobStore } from './store.js';

/**
 * The job queue of a fleet: BullMQ on REDIS_URL. API instances add jobs (by id: the
 * record is in the database), workers take them. A job waiting in Redis outlives any
 * instance; one whose worker died mid-run is found stalled by another worker and run
 * again (BullMQ's lock expiry: see workerOptions). Webhooks are a second queue whose deliveries BullMQ
 * retries with exponential backoff, so a retry survives a worker restart too.
 * Synchronous calls on API instances wait for their job through QueueEvents (Redis
 * streams), not by polling.
 *
 * Cancels: a job still waiting is removed from Redis; one running is locked by its worker,
 * which may be on any instance, so the cancel is published on CANCEL_CHANNEL and every
 * worker stops the job if it runs it. BullMQ's own Worker.cancelJob aborts only jobs of
 * the process that calls it, and its Relay (which carries such words across a fleet) is
 * experimental: a plain Redis channel does it here.
 */
const JOBS = 'jobs';
const WEBHOOKS = 'webhooks';
const PREFIX = 'manifold';
/**
 * BullMQ waits for Redis as long as it takes (it reconnects forever): a submission that
 * gets no answer from Redis within this long fails with 503 instead of holding the request.
 */
export const ADD_TIMEOUT_MS = 5000;
/** BullMQ's failure of a job that stalled more than maxStalledCount times, and its error for a lock it could not renew. */
const STALLED = /stalled more than allowable limit/;
const LOCK_LOST = /could not renew lock/;
/** The states of a job BullMQ still has to run or is running: the reconciler leaves its record alone. */
const HELD = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
/** Whose turn it is to reconcile (a SET NX with expiry: the instance that sets it sweeps). */
const RECONCILER_KEY = `${PREFIX}:jobs:reconciler`;
/**
 * A delivery whose receiver already has its share in flight in this worker waits this long
 * (plus up to as much again, so the waiting ones do not all come back at once) without using
 * an attempt, leaving the worker's slots to other receivers.
 */
const RECEIVER_BUSY_MS = 1000;
/** Where a cancel is told to every worker: the message is the job id. */
export const CANCEL_CHANNEL = `${PREFIX}:jobs:cancel`;
/** Finished entries kept in Redis for waiters and inspection; the records keep the results. */
const KEEP = { age: 24 * 3600, count: 10_000 };

export interface BullOptions {
  url: string;
  concurrency: number;
  /** JOBS_LOCK_MS (settings.ts). */
  lockMs: number;
  webhookAttempts: number;
  webhookBackoffMs: number;
  /** WEBHOOK_CONCURRENCY: deliveries in flight in this worker, all receivers together. */
  webhookConcurrency: number;
  /** WEBHOOK_RECEIVER_CONCURRENCY: deliveries in flight in this worker to one receiver. */
  webhookPerReceiver: number;
  logger: Logger;
}

/**
 * How a worker holds its running jobs. A worker holds each job by a lock in Redis that
 * lasts `lockMs` and is renewed every half of it (BullMQ's lockRenewTime default, by a
 * timer on this process's event loop); every `lockMs / 2` some worker's stalled-job
 * check moves an active job back to waiting once it was seen in one check and its lock
 * has expired by the next. A killed worker's job is thus waiting again at most
 * lockMs (expiry) + lockMs / 2 (the next check) after the kill, and taken at once by an
 * idle worker. A healthy job, however long, is renewed as long as its worker's event
 * loop is not blocked for about lockMs / 2 in one stretch. BullMQ's defaults (30 s lock,
 * 30 s checks) took ~73 s to run such a job again.
 */
export function workerOptions(lockMs: number): { lockDuration: number; stalledInterval: number } {
  return { lockDuration: lockMs, stalledInterval: Math.ceil(lockMs / 2) };
}

/** The longest wait between two attempts to reach Redis again. */
const RECONNECT_MAX_MS = 1000;

export class BullJobQueue implements JobQueue {
  readonly #connection: { url: string; retryStrategy: (times: number) => number };
  readonly #jobs: Queue;
  readonly #webhooks: Queue;
  #events?: QueueEvents;
  readonly #workers: Worker[] = [];
  /** This instance in the reconciler's turn key, and the connection that sets it and publishes cancels (BullMQ's own client has neither SET NX nor PUBLISH). */
  readonly #instance = crypto.randomUUID();
  #control?: RedisConnection;
  /** Listens on CANCEL_CHANNEL (workers, and synchronous calls waiting for a job); emits each cancelled id. */
  #cancels?: { subscriber: RedisSubscriber; events: EventEmitter };
  /** Deliveries in flight in this process, per receiver (a callback URL's origin). */
  readonly #delivering = new Map<string, number>();
  #reported = false;

  constructor(
    private readonly store: JobStore,
    private readonly options: BullOptions,
  ) {
    // BullMQ's own reconnect backs off to 20 s; this keeps a returning Redis in use within a second
    this.#connection = { url: options.url, retryStrategy: (times: number) => Math.min(times * 100, RECONNECT_MAX_MS) };
    this.#jobs = this.#watch(new Queue(JOBS, { connection: this.#connection, prefix: PREFIX }));
    this.#webhooks = this.#watch(new Queue(WEBHOOKS, { connection: this.#connection, prefix: PREFIX }));
  }

  /** Connection trouble is logged once until the queue works again; BullMQ reconnects by itself. The URL may hold a password: never logged. */
  #watch<T extends Queue | Worker | QueueEvents>(emitter: T): T {
    (emitter as unknown as NodeJS.EventEmitter).on('error', (err: Error) => {
      // BullMQ reports each lost lock as an error too: logged as such (lockRenewalFailed), not as Redis being away
      if (this.#reported || LOCK_LOST.test(err.message)) return;
      this.#reported = true;
      this.options.logger.error({ msg: 'job queue: redis unreachable', error: err.message });
    });
    return emitter;
  }

  async add(id: string): Promise<void> {
    // the runner records a handler's failure itself and resolves: a BullMQ attempt fails only when the
    // job could not be run or recorded (a worker stopping mid-run, the database away), so it is tried again
    const adding = this.#jobs.add(
      'run',
      { id },
      { jobId: id, attempts: 5, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: KEEP, removeOnFail: KEEP },
    );
    adding.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const unreachable = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ApiError('unavailable', 'The job queue (Redis) is unreachable; try again shortly', { headers: { 'Retry-After': '5' } })),
        ADD_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([adding, unreachable]);
    } finally {
      clearTimeout(timer);
    }
    this.#reported = false;
  }

  async states(ids: string[], graceMs: number): Promise<Map<string, QueueState>> {
    const state = async (id: string): Promise<QueueState> => {
      const raw = await this.#jobs.getJobState(id);
      if (HELD.has(raw)) return 'held';
      if (raw === 'unknown') return 'absent';
      const finishedOn = (await this.#jobs.getJob(id))?.finishedOn;
      return finishedOn !== undefined && Date.now() - finishedOn < graceMs ? 'held' : 'finished';
    };
    return new Map(await Promise.all(ids.map(async (id) => [id, await state(id)] as const)));
  }

  async ping(): Promise<void> {
    // a read of the queue itself: its Redis answers and BullMQ's connection to it is usable
    await this.#jobs.getJobCounts('waiting');
  }

  async lead(ttlMs: number): Promise<boolean> {
    return (await this.#controlConnection().run((client) => client.set(RECONCILER_KEY, this.#instance, 'PX', ttlMs, 'NX'))) === 'OK';
  }

  #controlConnection(): RedisConnection {
    return (this.#control ??= connectRedis(this.options.url, { role: 'job queue control', logger: this.options.logger }));
  }

  /** The cancels of every instance, heard here from the first call on (`subscriber.listening` settles once subscribed). */
  #listenForCancels(): { subscriber: RedisSubscriber; events: EventEmitter } {
    if (!this.#cancels) {
      const events = new EventEmitter().setMaxListeners(0);
      this.#cancels = { subscriber: subscribeRedis(this.options.url, [CANCEL_CHANNEL], (_channel, id) => events.emit('cancel', id)), events };
    }
    return this.#cancels;
  }

  async cancel(id: string): Promise<void> {
    // 1 when it was waiting (or delayed for a retry); 0 when a worker holds it, or it is gone
    await this.#jobs.remove(id);
    await this.#controlConnection().run((client) => client.publish(CANCEL_CHANNEL, id));
  }

  async addWebhook(id: string, receiver: string): Promise<void> {
    await this.#webhooks.add(
      'deliver',
      { id, receiver },
      {
        attempts: this.options.webhookAttempts,
        backoff: { type: 'exponential', delay: this.options.webhookBackoffMs },
        removeOnComplete: KEEP,
        removeOnFail: KEEP,
      },
    );
  }

  async finished(id: string, timeoutMs: number): Promise<void> {
    const events = (this.#events ??= this.#watch(new QueueEvents(JOBS, { connection: this.#connection, prefix: PREFIX })));
    await events.waitUntilReady();
    const timeout = new ApiError('upstream_timeout', `No answer within ${timeoutMs} ms (the job goes on: GET /api/jobs/${id})`);
    // a cancel removes a waiting job without finishing it: heard here, it ends the wait too
    // not waiting for the subscription: with Redis away the wait below runs out at timeoutMs as before
    const cancels = this.#listenForCancels().events;
    let onCancel: ((cancelled: string) => void) | undefined;
    const cancelled = new Promise<void>((resolve) => cancels.on('cancel', (onCancel = (cancelledId) => cancelledId === id && resolve())));
    try {
      const job = await Job.fromId(this.#jobs, id);
      // removed from Redis: finished long ago, or cancelled while it waited; the record says
      const record = job ? undefined : await this.store.get(id);
      if (record && isFinished(record.status)) return;
      if (!job) throw timeout;
      const finishing = job.waitUntilFinished(events, timeoutMs);
      finishing.catch(() => undefined); // its timeout, after a cancel ended the wait, must not go unhandled
      await Promise.race([finishing, cancelled]);
    } catch (err) {
      // the processor records failures itself and resolves, so a rejection here is the ttl
      if (/timed out/i.test((err as Error).message)) throw timeout;
      throw err;
    } finally {
      cancels.off('cancel', onCancel!);
    }
  }

  async work(handlers: JobHandlers): Promise<void> {
    const { concurrency, lockMs, logger } = this.options;
    const held = workerOptions(lockMs);
    // listening before taking any job: a job cancelled from now on is heard while it runs here
    const cancels = this.#listenForCancels();
    cancels.events.on('cancel', (id: string) => handlers.cancel(id));
    await cancels.subscriber.listening;
    const jobs = new Worker(JOBS, async (job: Job<{ id: string }>) => handlers.run(job.data.id), {
      connection: this.#connection,
      prefix: PREFIX,
      concurrency,
      ...held,
    });
    const webhooks = new Worker(WEBHOOKS, (job: Job<{ id: string; receiver?: string }>, token?: string) => this.#deliver(job, token, handlers), {
      connection: this.#connection,
      prefix: PREFIX,
      concurrency: this.options.webhookConcurrency,
      ...held,
    });
    jobs.on('failed', (job, err) => {
      // finishedOn: no retry follows. The runner records a handler's own failure and resolves, so this is
      // a job that never got an answer: it stalled once more than BullMQ allows (maxStalledCount 1: it
      // was running when its worker died, twice), or its attempts to reach the database ran out
      if (!job?.finishedOn) return;
      const message = STALLED.test(err.message)
        ? 'The job was given up: the worker running it stopped (killed or out of memory) each time it ran'
        : `The job was given up after ${job.attemptsMade} attempts: ${err.message}`;
      handlers
        .givenUp(job.data.id, message)
        .catch((error: Error) => logger.error({ msg: 'job given up, not recorded', jobId: job.data.id, error: error.message }));
    });
    // a lock not renewed in time (this process's event loop blocked ~lockMs / 2): another worker may run the job again
    jobs.on('lockRenewalFailed', (ids: string[]) => logger.error({ msg: 'job lock lost', jobIds: ids, lockMs }));
    webhooks.on('failed', (job, err) => {
      if (job && job.attemptsMade >= (job.opts.attempts ?? 1))
        logger.error({ msg: 'webhook given up', jobId: job.data.id, attempts: job.attemptsMade, error: err.message });
    });
    for (const worker of [jobs, webhooks]) this.#workers.push(this.#watch(worker));
    await Promise.all(this.#workers.map((w) => w.waitUntilReady()));
  }

  /**
   * One delivery, unless its receiver already has its share in flight here: then it goes back
   * to wait a little without using an attempt (DelayedError), so a receiver that hangs until
   * its timeout holds at most WEBHOOK_RECEIVER_CONCURRENCY of the worker's slots and every
   * other receiver's deliveries go on. Deliveries queued before receivers were recorded have none.
   */
  async #deliver(job: Job<{ id: string; receiver?: string }>, token: string | undefined, handlers: JobHandlers): Promise<void> {
    const { receiver } = job.data;
    if (receiver === undefined) return handlers.deliver(job.data.id);
    const inFlight = this.#delivering.get(receiver) ?? 0;
    if (inFlight >= this.options.webhookPerReceiver) {
      await job.moveToDelayed(Date.now() + RECEIVER_BUSY_MS + crypto.randomInt(RECEIVER_BUSY_MS), token);
      throw new DelayedError();
    }
    this.#delivering.set(receiver, inFlight + 1);
    try {
      await handlers.deliver(job.data.id);
    } finally {
      const left = this.#delivering.get(receiver)! - 1;
      if (left === 0) this.#delivering.delete(receiver);
      else this.#delivering.set(receiver, left);
    }
  }

  async close(): Promise<void> {
    // the runner was stopped first, so running jobs return at once (WorkerStopping): BullMQ records the
    // failed attempt and queues the retry, which another worker (or this one after a restart) runs
    await Promise.allSettled(this.#workers.map((w) => w.close()));
    this.#cancels?.subscriber.close();
    await Promise.allSettled([this.#jobs.close(), this.#webhooks.close(), this.#events?.close(), this.#control?.close()]);
  }
}

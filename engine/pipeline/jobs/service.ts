import type { Output } from '../../contract/call.js';
import { wantsBytes } from '../../contract/file-output.js';
import type { Principal } from '../../platform/auth/authenticate.js';
import type { Config } from '../../platform/config.js';
import type { DatabaseSource } from '../../platform/db/database.js';
import { ApiError, invalidParameter, notFound, reviveError } from '../../core/errors.js';
import { toApiError } from '../envelope.js';
import type { HttpClient } from '../../platform/http/client.js';
import type { Logger } from '../../platform/log.js';
import type { UsageCounter } from '../../platform/db/usage.js';
import type { EngineMetrics } from '../../platform/metrics/metrics.js';
import type { Endpoint } from '../../core/manifest-types.js';
import type { EndpointRegistry } from '../endpoint-registry.js';
import type { FileStore } from '../../platform/storage/files.js';
import { outputOf } from './job-output.js';
import type { JobQueue } from './queue.js';
import { jobUrl } from './routes.js';
import { JobReconciler } from './reconcile.js';
import { JobRunner, WorkerStopping } from './runner.js';
import { jobSettings, type JobSettings } from './settings.js';
import { maxJobsForTier } from '../../platform/auth/tiers.js';
import { JobStore, type JobError, type JobRecord } from './store.js';
import { receiverOf, WebhookSender } from './webhook.js';

/**
 * Async jobs for one engine: submission from the request pipeline (async=true → 202,
 * and, on `api` instances, synchronous calls of long-running endpoints that wait for a
 * worker), the per-key limit, and the running side (roles `worker` and `all`): the
 * queue's handlers run jobs (runner.ts) and deliver their webhooks (webhook.ts).
 */
export interface JobsDeps {
  config: Config;
  /** Where the jobs' records are kept: the engine's database. */
  database: DatabaseSource;
  registry: EndpointRegistry;
  files: FileStore;
  http: HttpClient;
  logger: Logger;
  /** Where jobs' metered work goes (runner.ts). */
  usage?: UsageCounter;
  metrics?: EngineMetrics;
}

/** What the pipeline hands over: the validated params, with `async` and `callback_url` already taken out. */
export interface Submission {
  endpoint: Endpoint;
  principal: Principal;
  params: Record<string, unknown>;
  callbackUrl?: string;
}

export class Jobs {
  readonly settings: JobSettings;
  readonly store: JobStore;
  /** Made on first use: BullMQ and its Redis clients load only with REDIS_URL, and not at boot. */
  readonly #queue: Promise<JobQueue>;
  readonly #runner: JobRunner;
  readonly #webhooks: WebhookSender;
  #reconciler?: JobReconciler;
  /** Set at shutdown: a run that returns nothing then was cut off, not finished. */
  #stopped = false;

  constructor(private readonly deps: JobsDeps) {
    const { config, logger } = deps;
    this.settings = jobSettings(config);
    checkMaxAge(this.settings.maxAgeMs, deps.registry);
    this.store = new JobStore(deps.database, { maxAgeMs: this.settings.maxAgeMs });
    const { concurrency, lockMs, webhook } = this.settings;
    const queueOptions = {
      concurrency,
      lockMs,
      webhookAttempts: webhook.attempts,
      webhookBackoffMs: webhook.backoffMs,
      webhookConcurrency: webhook.concurrency,
      webhookPerReceiver: webhook.perReceiver,
      logger,
    };
    const url = this.settings.redisUrl;
    this.#queue = url
      ? import('./bullmq-queue.js').then(({ BullJobQueue }) => new BullJobQueue(this.store, { url, ...queueOptions }))
      : import('./local-queue.js').then(({ LocalJobQueue }) => new LocalJobQueue(this.store, queueOptions));
    this.#runner = new JobRunner({ config, registry: deps.registry, store: this.store, files: deps.files, logger, usage: deps.usage, metrics: deps.metrics });
    this.#webhooks = new WebhookSender(deps.http.guard, { secret: webhook.secret, timeoutMs: webhook.timeoutMs, userAgent: deps.http.userAgent });
  }

  get config(): Config {
    return this.deps.config;
  }

  /** True on `api` instances: long-running synchronous calls are run by the workers, and waited for. */
  /** The queue's own store, asked by readiness (engine/platform/health); undefined for the in-process queue, which has none. */
  get ping(): ((signal: AbortSignal) => Promise<void>) | undefined {
    if (!this.settings.redisUrl) return undefined;
    return async () => (await this.#queue).ping?.();
  }

  get remote(): boolean {
    return this.settings.role === 'api';
  }

  /** Record and enqueue a job: refused (429) when the key already has its tier's number of unfinished jobs. */
  async submit({ endpoint, principal, params, callbackUrl }: Submission): Promise<JobRecord> {
    if (callbackUrl !== undefined) await this.deps.http.guard.checkUrl(callbackUrl, 'callback_url');
    const { limit, variable } = maxJobsForTier(this.deps.config, principal.tier);
    const created = await this.store.createWithin(limit, { keyId: principal.keyId, endpoint: endpoint.id, params, callbackUrl });
    if (!('job' in created)) {
      throw new ApiError(
        'rate_limited',
        `This key already has ${created.pending} unfinished jobs, the limit of its ${principal.tier} tier (${variable}=${limit}); retry when one has finished`,
        { headers: { 'Retry-After': '5' }, details: [{ param: 'async', problem: `at most ${limit} unfinished jobs per ${principal.tier} key` }] },
      );
    }
    const { job } = created;
    try {
      await (await this.#queue).add(job.id);
    } catch (err) {
      // never queued: recorded failed, so it neither counts against the key nor runs if Redis took it late
      const error = toApiError(err);
      await this.store.fail(job.id, { error: error.code, message: error.message, status: error.status }).catch(() => undefined);
      throw err;
    }
    return job;
  }

  /** The 202's result: what the client polls. */
  accepted(job: JobRecord) {
    return { job_id: job.id, status: job.status, status_url: jobUrl(this.deps.config.publicBaseUrl, job.id) };
  }

  /**
   * A synchronous call on an `api` instance: run as a job by a worker, waited for within
   * the endpoint's timeout, answered exactly as the call would have been here (its
   * error, its JSON result, or — for bytes — the file the worker stored).
   */
  async runRemote(submission: Submission): Promise<Output> {
    const job = await this.submit(submission);
    await (await this.#queue).finished(job.id, submission.endpoint.limits.timeoutMs);
    const done = await this.store.get(job.id);
    if (done?.status === 'failed' || done?.status === 'cancelled')
      throw reviveError(done.error?.error ?? 'internal_error', done.error?.message ?? 'The job failed');
    if (done?.status !== 'completed') throw new ApiError('upstream_timeout', `No answer within ${submission.endpoint.limits.timeoutMs} ms`);
    return outputOf(done.result, wantsBytes(submission.endpoint, submission.params), this.deps.files);
  }

  /**
   * Start reconciling records with the queue (every role: one instance at a time sweeps,
   * reconcile.ts), and running queued jobs (roles `worker` and `all`; an `api` instance runs none).
   */
  async start(): Promise<void> {
    const queue = await this.#queue;
    const fail = (id: string, error: JobError) => this.#fail(queue, id, error);
    this.#reconciler = new JobReconciler(this.store, queue, {
      periodMs: this.settings.reconcileMs,
      maxAgeMs: this.settings.maxAgeMs,
      logger: this.deps.logger,
      fail,
    });
    this.#reconciler.start();
    if (this.settings.role === 'api') return;
    await queue.work({
      run: async (id) => {
        const finished = await this.#runner.run(id);
        if (finished === undefined && this.#stopped) throw new WorkerStopping();
        if (finished?.callbackUrl) await queue.addWebhook(id, receiverOf(finished.callbackUrl));
      },
      deliver: async (id) => {
        const job = await this.store.get(id);
        if (job) await this.#webhooks.send(job);
      },
      givenUp: (id, message) => fail(id, { error: 'internal_error', message, status: 500 }),
      cancel: (id) => void this.#runner.cancel(id),
    });
  }

  /**
   * Cancel a queued or running job: of `keyId` only (another key's job is as absent as an
   * unknown one), or any job when `keyId` is undefined (the admin). The record is made
   * `cancelled` first, so whatever happens next nothing runs or records it again; then the
   * queue drops it or its worker stops it (best effort: a worker that misses the word stops at
   * its next progress report, and its answer is never recorded), and its webhook says so.
   */
  async cancel(id: string, keyId?: string): Promise<JobRecord> {
    const by = keyId === undefined ? 'the administrator' : 'its API key';
    const outcome = await this.store.cancel(id, { error: 'job_cancelled', message: `The job was cancelled by ${by}` }, keyId);
    if ('absent' in outcome) throw notFound(keyId === undefined ? `No job ${id}` : `No job ${id} for this API key`);
    if ('finished' in outcome)
      throw new ApiError('job_finished', `Job ${id} has already finished (${outcome.finished.status}): there is nothing to cancel`, {
        details: [{ param: 'id', problem: `the job is ${outcome.finished.status}` }],
      });
    const job = outcome.cancelled;
    const queue = await this.#queue;
    // the record is the answer: the queue being away (Redis) does not undo the cancel
    const logged = (msg: string) => (err: Error) => this.deps.logger.error({ msg, jobId: id, error: err.message });
    await queue.cancel(id).catch(logged('job cancel not passed on to the queue'));
    if (job.callbackUrl) await queue.addWebhook(id, receiverOf(job.callbackUrl)).catch(logged('webhook of a cancelled job not queued'));
    return job;
  }

  /** Record a job failed that nothing will finish otherwise, and send its webhook: only the one who recorded it sends it. */
  async #fail(queue: JobQueue, id: string, error: JobError): Promise<void> {
    if (!(await this.store.fail(id, error))) return;
    const callbackUrl = (await this.store.get(id))?.callbackUrl;
    if (callbackUrl) await queue.addWebhook(id, receiverOf(callbackUrl));
  }

  /** One reconciliation sweep now, if this instance's turn (tests; the timer does it every JOBS_RECONCILE_MS). */
  reconcile() {
    return this.#reconciler?.sweep();
  }

  async close(): Promise<void> {
    this.#stopped = true;
    this.#reconciler?.stop();
    this.#runner.stop();
    await (await this.#queue).close();
    this.#webhooks.close();
  }
}

/**
 * JOBS_MAX_AGE_MS must outlast the longest job endpoint's timeout, or the reconciler would fail
 * such jobs while they run: the boot stops saying so (tests hand in an empty registry).
 */
function checkMaxAge(maxAgeMs: number, registry: EndpointRegistry): void {
  const timeouts = [...(registry.byId?.values() ?? [])].filter((r) => r.endpoint.async).map((r) => r.endpoint.limits.timeoutMs);
  const longest = Math.max(0, ...timeouts);
  if (maxAgeMs <= longest)
    throw new Error(
      `JOBS_MAX_AGE_MS (${maxAgeMs}) must be longer than the longest job endpoint's timeout (${longest} ms), or such jobs would be failed while they run`,
    );
}

/** Parse `async` and `callback_url` off validated params: what the handler gets is exactly the synchronous call's params. */
export function takeJobParams(params: Record<string, unknown>): { async: boolean; callbackUrl?: string; params: Record<string, unknown> } {
  const { async: wantsAsync, callback_url: callbackUrl, ...rest } = params;
  if (callbackUrl !== undefined && wantsAsync !== true) throw invalidParameter('callback_url', 'needs async=true');
  return { async: wantsAsync === true, callbackUrl: callbackUrl as string | undefined, params: rest };
}

import type { Call, Caller, Metered } from '../../contract/call.js';
import { TEST_KEY_ID } from '../../platform/auth/authenticate.js';
import type { UsageCounter, Work } from '../../platform/db/usage.js';
import type { EngineMetrics } from '../../platform/metrics/metrics.js';
import { tallyWork } from '../usage-meter.js';
import type { Config } from '../../platform/config.js';
import { ApiError, unavailable } from '../../core/errors.js';
import { toApiError } from '../envelope.js';
import type { Logger } from '../../platform/log.js';
import type { EndpointRegistry } from '../endpoint-registry.js';
import type { FileStore } from '../../platform/storage/files.js';
import { storeOutput } from './job-output.js';
import type { JobRecord, JobStore } from './store.js';

/**
 * Runs one job, wherever the queue hands it over: the same handler a synchronous call
 * of its endpoint runs, with the same params and the endpoint's timeout, its answer
 * kept in the job record (job-output.ts) and a failure kept as the `{error, message}`
 * the synchronous call would have answered. The queue only says which job; everything
 * else comes from the record, so any worker of any instance can run it.
 *
 * Progress reported by the handler (`call.progress`) is written at most every
 * PROGRESS_WRITE_MS, plus at every change of stage.
 */
const PROGRESS_WRITE_MS = 250;

export interface RunnerDeps {
  config: Config;
  registry: EndpointRegistry;
  store: JobStore;
  files: FileStore;
  logger: Logger;
  /** Where a job's metered work goes (AI tokens, media seconds): the key's usage and the metrics. */
  usage?: UsageCounter;
  metrics?: EngineMetrics;
}

/** Why a job stopped without an answer because its worker is shutting down: it is left unfinished, to run again. */
export class WorkerStopping extends Error {
  constructor() {
    super('The worker is shutting down; the job will run again');
  }
}

/** Why a job's work was stopped: its record was made `cancelled` (or finished elsewhere), so nothing more is recorded. */
export class JobCancelled extends Error {
  constructor() {
    super('The job was cancelled');
  }
}

export class JobRunner {
  /** Aborted at shutdown: running jobs stop and stay unfinished (queued again by the queue, or resumed at next boot). */
  readonly #stopping = new AbortController();
  /** The cancel switch of each job running here (cancel()). */
  readonly #running = new Map<string, AbortController>();

  constructor(private readonly deps: RunnerDeps) {}

  /**
   * Run the job; resolves with its finished record, or undefined when there was nothing to
   * run or record (gone, finished, cancelled, or the worker stopped).
   */
  async run(id: string): Promise<JobRecord | undefined> {
    const { store } = this.deps;
    // in place before the record says `active`: a cancel recorded after start() finds the
    // switch; one recorded before makes start() find nothing to run
    const cancel = new AbortController();
    this.#running.set(id, cancel);
    try {
      const job = await store.start(id);
      if (!job) return undefined;
      return await this.#run(job, cancel);
    } finally {
      if (this.#running.get(id) === cancel) this.#running.delete(id);
    }
  }

  /**
   * Stop a job running here: its handler's signal aborts (HTTP requests, child processes and
   * pool tasks that take it stop), and run() returns at once, freeing its slot. False when
   * it does not run here.
   */
  cancel(id: string): boolean {
    const running = this.#running.get(id);
    running?.abort(new JobCancelled());
    return running !== undefined;
  }

  async #run(job: JobRecord, cancel: AbortController): Promise<JobRecord | undefined> {
    const { id } = job;
    const { store, registry, config, files, logger } = this.deps;
    const route = registry.byId.get(job.endpoint);
    const timeoutMs = route?.endpoint.limits.timeoutMs ?? 15_000;
    // a progress write that finds the record no longer active stops the work too: the cancel's message may have been missed
    const write = async (percent: number, stage?: string) => {
      if (!(await store.progress(id, percent, stage))) cancel.abort(new JobCancelled());
    };
    const call = new JobCall(job, config.publicBaseUrl, timeoutMs, AbortSignal.any([this.#stopping.signal, cancel.signal]), write, cancel.signal);
    try {
      if (!route) throw new ApiError('not_found', `The endpoint ${job.endpoint} no longer exists`);
      if (!route.handler) throw unavailable(route.unavailable!);
      const output = await call.race(route.handler(call));
      call.progress(100, 'storing');
      const result = await storeOutput(output, files, config.uploadMaxBytes);
      await call.flushed();
      // counted before the job is seen finished, so its usage is there when its client looks
      this.#meter(job, route?.endpoint, call.takeWork());
      // false: cancelled meanwhile, and the canceller reports it (its webhook included)
      if (!(await store.complete(id, result))) return undefined;
    } catch (err) {
      this.#meter(job, route?.endpoint, call.takeWork());
      if (this.#stopping.signal.aborted || cancel.signal.aborted) return undefined;
      const error = toApiError(err);
      if (error.status >= 500 && error.code === 'internal_error') logger.error({ msg: 'job failed', jobId: id, endpoint: job.endpoint, err });
      await call.flushed();
      if (!(await store.fail(id, { error: error.code, message: error.message, status: error.status }))) return undefined;
    } finally {
      call.dispose();
    }
    return store.get(id);
  }

  /** The work the handler reported, once, for the job's key and endpoint (its request was counted when it was submitted). */
  #meter(job: JobRecord, endpoint: { category: string; path: string } | undefined, work: Work): void {
    if (!work.promptTokens && !work.completionTokens && !work.mediaMs) return;
    this.deps.usage?.worked(job.keyId, job.endpoint, work);
    const tier = job.keyId === TEST_KEY_ID ? 'test' : 'personal';
    if (endpoint) this.deps.metrics?.work({ category: endpoint.category, endpoint: endpoint.path }, tier, work);
  }

  /** Stop running jobs (shutdown): they are neither completed nor failed, so they run again. */
  stop(): void {
    this.#stopping.abort(new WorkerStopping());
  }
}

/** The `Call` a job's handler receives: no HTTP request behind it, a timer of its own for the endpoint's timeout. */
class JobCall implements Call {
  readonly params: Record<string, any>;
  readonly caller: Caller;
  readonly requestId: string;
  /** What the handler metered (Call.meter) and is not yet reported (takeWork()). */
  #work: Work = {};
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #onStop: () => void;
  readonly #stop: AbortSignal;
  #expired?: Promise<never>;
  #lastWrite = 0;
  #lastStage: string | undefined;
  #writing: Promise<void> = Promise.resolve();
  #pendingWrite?: NodeJS.Timeout;

  constructor(
    job: JobRecord,
    readonly baseUrl: string,
    private readonly timeoutMs: number,
    stop: AbortSignal,
    private readonly write: (percent: number, stage?: string) => Promise<void>,
    readonly cancelled: AbortSignal,
  ) {
    this.params = job.params;
    // the tier only matters to per-key state (AI memory): the key's id is what handlers use
    this.caller = { keyId: job.keyId, tier: 'personal' };
    this.requestId = `job:${job.id}`;
    this.#timer = setTimeout(() => this.#controller.abort(new ApiError('upstream_timeout', `No answer within ${timeoutMs} ms`)), timeoutMs);
    this.#stop = stop;
    this.#onStop = () => this.#controller.abort(stop.reason);
    if (stop.aborted) this.#onStop();
    else stop.addEventListener('abort', this.#onStop, { once: true });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  readonly meter = (metered: Metered): void => tallyWork(this.#work, metered);

  /** What was metered since the last call, to report once. */
  takeWork(): Work {
    const work = this.#work;
    this.#work = {};
    return work;
  }

  /** The handler's answer, or the timeout / shutdown, whichever comes first (a handler that ignores its signal is not waited for). */
  race<T>(work: Promise<T>): Promise<T> {
    this.#expired ??= new Promise<never>((_, reject) => {
      const signal = this.#controller.signal;
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    // the losing side's rejection must not go unhandled
    work.catch(() => undefined);
    return Promise.race([work, this.#expired]);
  }

  readonly progress = (percent: number, stage?: string): void => {
    if (!Number.isFinite(percent)) return;
    const stageChanged = stage !== undefined && stage !== this.#lastStage;
    this.#lastStage = stage ?? this.#lastStage;
    clearTimeout(this.#pendingWrite);
    const due = this.#lastWrite + PROGRESS_WRITE_MS - Date.now();
    const write = () => {
      this.#lastWrite = Date.now();
      this.#writing = this.#writing.then(() => this.write(percent, this.#lastStage)).catch(() => undefined);
    };
    // the latest value wins: a burst of reports makes one write now and one at the end of the interval
    if (stageChanged || due <= 0) write();
    else this.#pendingWrite = setTimeout(write, due).unref();
  };

  /** Wait for progress writes in flight (so a late one cannot land after the job finished: the store ignores it anyway). */
  async flushed(): Promise<void> {
    clearTimeout(this.#pendingWrite);
    await this.#writing;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    clearTimeout(this.#pendingWrite);
    this.#stop.removeEventListener('abort', this.#onStop);
  }
}

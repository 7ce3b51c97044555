import type { Call, Caller } from '../../contract/call.js';
import type { Config } from '../../platform/config.js';
import { ApiError, unavailable } from '../../core/errors.js';
import { toApiError } from '../envelope.js';
import type { Logger } from '../../platform/log.js';
import type { Registry } from '../endpoint-registry.js';
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
  registry: Registry;
  store: JobStore;
  files: FileStore;
  logger: Logger;
}

/** Why a job stopped without an answer because its worker is shutting down: it is left unfinished, to run again. */
export class WorkerStopping extends Error {
  constructor() {
    super('The worker is shutting down; the job will run again');
  }
}

export class JobRunner {
  /** Aborted at shutdown: running jobs stop and stay unfinished (queued again by the queue, or resumed at next boot). */
  readonly #stopping = new AbortController();

  constructor(private readonly deps: RunnerDeps) {}

  /** Run the job; resolves with its finished record, or undefined when there was nothing to run (gone, finished, or the worker stopped). */
  async run(id: string): Promise<JobRecord | undefined> {
    const { store, registry, config, files, logger } = this.deps;
    const job = await store.start(id);
    if (!job) return undefined;
    const route = registry.byId.get(job.endpoint);
    const timeoutMs = route?.endpoint.limits.timeoutMs ?? 15_000;
    const call = new JobCall(job, config.publicBaseUrl, timeoutMs, this.#stopping.signal, (percent, stage) => store.progress(id, percent, stage));
    try {
      if (!route) throw new ApiError('not_found', `The endpoint ${job.endpoint} no longer exists`);
      if (!route.handler) throw unavailable(route.unavailable!);
      const output = await call.race(route.handler(call));
      call.progress(100, 'storing');
      const result = await storeOutput(output, files, config.uploadMaxBytes);
      await call.flushed();
      await store.complete(id, result);
    } catch (err) {
      if (this.#stopping.signal.aborted) return undefined;
      const error = toApiError(err);
      if (error.status >= 500 && error.code === 'internal_error') logger.error({ msg: 'job failed', jobId: id, endpoint: job.endpoint, err });
      await call.flushed();
      await store.fail(id, { error: error.code, message: error.message, status: error.status });
    } finally {
      call.dispose();
    }
    return store.get(id);
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

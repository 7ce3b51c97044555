import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { EngineScope } from '../scope.js';
import type { PoolStats } from '../workers/pool-stats.js';
import type { Work } from '../db/usage.js';

/** How an upstream call ended: an answer used, an error (status, network, size), or its deadline. */
export type UpstreamOutcome = 'ok' | 'error' | 'timeout';

/** The labels a request is counted under: bounded by the registry, never the raw URL. */
export interface RequestLabels {
  /** The endpoint's category, `builtin` for built-in routes, `none` for unmatched paths. */
  category: string;
  /** The matched path template (`/api/download/ytmp3`, `/api/jobs/:id`), or `unmatched`. */
  endpoint: string;
}

export const UNMATCHED: RequestLabels = { category: 'none', endpoint: 'unmatched' };

/** `2xx` … `5xx`: what alerts and dashboards group by (error rate), one label value per hundred. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** How a result-cache lookup ended: a stored answer, a computation already running for the same key (single-flight), or a computation. */
export type CacheOutcome = 'hit' | 'shared' | 'miss';

/** The classes of stored data the storage janitor measures. */
export type StoredClass = 'uploads' | 'generated' | 'media_cache' | 'temp';

/**
 * The engine's Prometheus metrics (prom-client). One registry per engine, not
 * prom-client's global one, so several engines in one process (tests) keep their own
 * counts and never register a name twice. Job states (`manifold_jobs`) are registered by
 * the jobs feature (jobStates).
 */
export class EngineMetrics {
  readonly registry = new Registry();
  /**
   * Requests answered since the last scrape, per labels object (one per route, pipeline/dispatch.ts)
   * and status: a Map increment on the request path instead of prom-client's label
   * validation and hashing; folded into the counter whenever it is read (scrape, get()).
   */
  #answered = new Map<RequestLabels, Map<number, number>>();
  /** The duration's labels per route and status class, made once each (observe() on the request path allocates nothing). */
  #timed = new Map<RequestLabels, Map<number, Readonly<RequestLabels & { class: string }>>>();
  private readonly requests = new Counter({
    name: 'manifold_http_requests_total',
    help: 'HTTP requests answered, by endpoint path template, status and status class (2xx…5xx)',
    labelNames: ['category', 'endpoint', 'status', 'class'] as const,
    registers: [this.registry],
    collect: () => this.#foldAnswered(),
  });
  private readonly duration = new Histogram({
    name: 'manifold_http_request_duration_seconds',
    help: 'Time from receiving a request to its answer (headers and JSON bodies; streamed files end later), by endpoint and status class',
    labelNames: ['category', 'endpoint', 'class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly upstreams = new Counter({
    name: 'manifold_upstream_requests_total',
    help: 'Calls to operator-configured upstream services, by upstream name and outcome (ok, error, timeout)',
    labelNames: ['upstream', 'outcome'] as const,
    registers: [this.registry],
  });
  /** Keyed requests since the last scrape, per tier and status class (hundreds): folded like #answered. */
  #keyed = new Map<string, Map<number, number>>();
  private readonly keyRequests = new Counter({
    name: 'manifold_key_requests_total',
    help: "Requests made with an API key, by the key's tier and the answer's status class (never the key: its usage per key is GET /api/admin/usage)",
    labelNames: ['tier', 'class'] as const,
    registers: [this.registry],
    collect: () => this.#foldKeyed(),
  });
  /** Response body bytes since the last scrape, per route labels and tier: folded like #answered (a Map add per request). */
  #sent = new Map<RequestLabels, Map<string, number>>();
  private readonly bytesOut = new Counter({
    name: 'manifold_response_bytes_total',
    help: "Response body bytes sent (streamed answers as they went out), by endpoint path template and the key's tier (`none` without a key); per key: GET /api/admin/usage",
    labelNames: ['category', 'endpoint', 'tier'] as const,
    registers: [this.registry],
    collect: () => this.#foldSent(),
  });
  private readonly aiTokens = new Counter({
    name: 'manifold_ai_tokens_total',
    help: "AI tokens as the provider reported them, by direction (prompt, completion), endpoint path template and the key's tier; a streamed answer only when the provider sends usage in it",
    labelNames: ['category', 'endpoint', 'tier', 'direction'] as const,
    registers: [this.registry],
  });
  private readonly mediaSeconds = new Counter({
    name: 'manifold_media_seconds_total',
    help: "Seconds of media downloaded or converted (the media's duration as yt-dlp and ffmpeg report it; async jobs included), by endpoint path template and the key's tier; per key: GET /api/admin/usage",
    labelNames: ['category', 'endpoint', 'tier'] as const,
    registers: [this.registry],
  });
  private readonly cacheLookups = new Counter({
    name: 'manifold_result_cache_lookups_total',
    help: 'Result-cache lookups of cacheable endpoints: hit (a stored answer), shared (joined a computation already running for the same request), miss (computed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(scope?: EngineScope) {
    const pools = () => scope?.poolStats() ?? [];
    this.#poolGauge(
      'manifold_pool_tasks',
      'Tasks in the worker pools (render: effects; cpu: code handlers; media: downloads), running (active) or waiting (queued); a pool not yet started reports nothing',
      'state',
      pools,
      (stats) => ({ active: stats.active, queued: stats.queued }),
    );
    this.#poolGauge(
      'manifold_pool_capacity',
      'What the worker pools hold at most: workers (tasks run at once) and queue (tasks allowed to wait); saturation is manifold_pool_tasks over this',
      'kind',
      pools,
      (stats) => ({ workers: stats.workers, queue: stats.queueLimit }),
    );
    collectDefaultMetrics({ register: this.registry });
  }

  /** A gauge read from the running pools at each scrape, one series per pool and figure (`figures` names them under `label`). */
  #poolGauge(name: string, help: string, label: string, pools: () => [string, PoolStats][], figures: (stats: PoolStats) => Record<string, number>): void {
    new Gauge({
      name,
      help,
      labelNames: ['pool', label],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [pool, stats] of pools()) for (const [value, n] of Object.entries(figures(stats))) this.set({ pool, [label]: value }, n);
      },
    });
  }

  /** `manifold_jobs{status}`: jobs per status, read from the shared job records at each scrape (every instance reports the fleet's numbers). */
  jobStates(counts: () => Promise<Record<string, number>>): void {
    new Gauge({
      name: 'manifold_jobs',
      help: 'Async jobs by status (queued, active, completed, failed), from the job records shared by every instance',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        // a database that does not answer leaves the last values rather than failing the scrape
        const now = await counts().catch(() => undefined);
        if (now) for (const [status, n] of Object.entries(now)) this.set({ status }, n);
      },
    });
  }

  /** Count one answered request. */
  request(labels: RequestLabels, status: number, seconds: number): void {
    let byStatus = this.#answered.get(labels);
    if (!byStatus) this.#answered.set(labels, (byStatus = new Map()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
    this.duration.observe(this.#withClass(labels, status), seconds);
  }

  #withClass(labels: RequestLabels, status: number): Readonly<RequestLabels & { class: string }> {
    const hundred = Math.floor(status / 100);
    let byClass = this.#timed.get(labels);
    if (!byClass) this.#timed.set(labels, (byClass = new Map()));
    let made = byClass.get(hundred);
    if (!made) byClass.set(hundred, (made = Object.freeze({ ...labels, class: statusClass(status) })));
    return made;
  }

  /** Count one request made with a key of `tier` (the shared test key's or a personal one). */
  keyRequest(tier: string, status: number): void {
    let byClass = this.#keyed.get(tier);
    if (!byClass) this.#keyed.set(tier, (byClass = new Map()));
    const hundred = Math.floor(status / 100);
    byClass.set(hundred, (byClass.get(hundred) ?? 0) + 1);
  }

  #foldKeyed(): void {
    const keyed = this.#keyed;
    if (keyed.size === 0) return;
    this.#keyed = new Map();
    for (const [tier, byClass] of keyed) for (const [hundred, n] of byClass) this.keyRequests.inc({ tier, class: statusClass(hundred * 100) }, n);
  }

  /**
   * Stored files from the storage janitor's last measurement (storage/janitor.ts): bytes and
   * files per class (`uploads`, `generated`, `media_cache`, `temp`), and the generated files
   * deleted to keep GENERATED_FILES_QUOTA_BYTES since start.
   */
  storage(measured: () => Record<StoredClass, { files: number; bytes: number }> | undefined, evicted: () => { files: number; bytes: number }): void {
    const classes: StoredClass[] = ['uploads', 'generated', 'media_cache', 'temp'];
    for (const [name, field, help] of [
      [
        'manifold_stored_bytes',
        'bytes',
        "Bytes of stored files by class (uploads, generated, media_cache, temp), as of the storage janitor's last measurement",
      ],
      ['manifold_stored_files', 'files', "Stored files by class (uploads, generated, media_cache, temp), as of the storage janitor's last measurement"],
    ] as const) {
      new Gauge({
        name,
        help,
        labelNames: ['class'] as const,
        registers: [this.registry],
        collect() {
          const usage = measured();
          if (usage) for (const c of classes) this.set({ class: c }, usage[c][field]);
        },
      });
    }
    for (const [name, field, help] of [
      ['manifold_generated_evicted_files_total', 'files', 'Generated files deleted, oldest first, to keep GENERATED_FILES_QUOTA_BYTES'],
      ['manifold_generated_evicted_bytes_total', 'bytes', 'Bytes of generated files deleted to keep GENERATED_FILES_QUOTA_BYTES'],
    ] as const) {
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          // the janitor keeps the running total: the counter reads it at each scrape
          this.reset();
          this.inc(evicted()[field]);
        },
      });
    }
  }

  /** Add an answer's body bytes, AI tokens and media seconds (pipeline/usage-meter.ts). */
  answerFigures(labels: RequestLabels, tier: string, bytesOut: number, work?: Work): void {
    if (bytesOut > 0) {
      let byTier = this.#sent.get(labels);
      if (!byTier) this.#sent.set(labels, (byTier = new Map()));
      byTier.set(tier, (byTier.get(tier) ?? 0) + bytesOut);
    }
    if (work) this.work(labels, tier, work);
  }

  /** Add AI tokens and media seconds, of an answer or of an async job's run (pipeline/jobs/runner.ts). */
  work({ category, endpoint }: Pick<RequestLabels, 'category' | 'endpoint'>, tier: string, work: Work): void {
    if (work.promptTokens) this.aiTokens.inc({ category, endpoint, tier, direction: 'prompt' }, work.promptTokens);
    if (work.completionTokens) this.aiTokens.inc({ category, endpoint, tier, direction: 'completion' }, work.completionTokens);
    if (work.mediaMs) this.mediaSeconds.inc({ category, endpoint, tier }, work.mediaMs / 1000);
  }

  #foldSent(): void {
    const sent = this.#sent;
    if (sent.size === 0) return;
    this.#sent = new Map();
    for (const [{ category, endpoint }, byTier] of sent) for (const [tier, n] of byTier) this.bytesOut.inc({ category, endpoint, tier }, n);
  }

  /** Count one result-cache lookup (cache.ts). */
  cacheLookup(outcome: CacheOutcome): void {
    this.cacheLookups.inc({ outcome });
  }

  #foldAnswered(): void {
    const answered = this.#answered;
    if (answered.size === 0) return;
    this.#answered = new Map();
    for (const [labels, byStatus] of answered) for (const [status, n] of byStatus) this.requests.inc({ ...labels, status, class: statusClass(status) }, n);
  }

  /** Count one upstream call (retries included in the one call). */
  upstream(upstream: string, outcome: UpstreamOutcome): void {
    this.upstreams.inc({ upstream, outcome });
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}

import type { Config } from '../config.js';
import type { EngineDatabase } from '../db/engine-database.js';
import type { Logger } from '../log.js';
import { positiveInt } from '../settings/int.js';
import { checkDatabase } from './database-check.js';
import { RedisCheck } from './redis-check.js';

/**
 * Readiness: does each dependency this instance is configured for answer now — the
 * database (PostgreSQL or the SQLite file), Redis, the S3 bucket, the job queue.
 * Every check runs at once, each bounded by HEALTH_CHECK_TIMEOUT_MS, so the answer
 * comes within about that long whatever hangs; checks asked for while a round runs
 * share it (a load balancer polling every instance often cannot pile up connections).
 * Each check opens its own way in (a fresh PostgreSQL connection, a Redis connection
 * that reconnects quickly), never the request path's pools and circuits: readiness
 * says whether the dependency answers now, the circuits' state is a metric beside it.
 */

/** How long one check may take before it counts as failed; a round answers within about this. */
export const HEALTH_CHECK_TIMEOUT_MS = 800;

export type Dependency = 'database' | 'redis' | 's3' | 'queue';

export interface CheckResult {
  ok: boolean;
  /** Time the check took, in milliseconds. */
  ms: number;
  /** Why it failed: an error code or class name (`ECONNREFUSED`, `timeout`), never a message that could carry an address or credential. */
  error?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Partial<Record<Dependency, CheckResult>>;
}

export interface ReadinessDeps {
  config: Config;
  /** The engine's database, checked with `select 1` (SQLite) or on a connection of its own to its server (PostgreSQL). */
  database: EngineDatabase;
  logger: Logger;
  /** S3's HeadBucket when hosted files are on S3 (storage/s3-files.ts). */
  pingFiles?: (signal: AbortSignal) => Promise<void>;
  /** The job queue's own store (BullMQ's Redis), when it has one. */
  pingQueue?: (signal: AbortSignal) => Promise<void>;
}

export class Readiness {
  readonly timeoutMs: number;
  #round?: Promise<ReadinessReport>;
  #last?: ReadinessReport;
  readonly #redis?: RedisCheck;
  readonly #checks: [Dependency, (signal: AbortSignal) => Promise<void>][];

  constructor(private readonly deps: ReadinessDeps) {
    const { config } = deps;
    this.timeoutMs = positiveInt(config.env, 'HEALTH_CHECK_TIMEOUT_MS', HEALTH_CHECK_TIMEOUT_MS);
    if (config.redisUrl) this.#redis = new RedisCheck(config.redisUrl, { logger: deps.logger, timeoutMs: this.timeoutMs });
    const redis = this.#redis;
    this.#checks = [['database', (signal) => checkDatabase(deps.database, this.timeoutMs, signal)]];
    if (redis) this.#checks.push(['redis', (signal) => redis.ping(signal)]);
    if (deps.pingFiles) this.#checks.push(['s3', deps.pingFiles]);
    if (deps.pingQueue) this.#checks.push(['queue', deps.pingQueue]);
  }

  /** The dependencies checked, in report order. */
  get dependencies(): Dependency[] {
    return this.#checks.map(([name]) => name);
  }

  /** The last finished round (metrics read it between scrapes); undefined before the first. */
  get last(): ReadinessReport | undefined {
    return this.#last;
  }

  /** Check every dependency now (joining a round already running). */
  check(): Promise<ReadinessReport> {
    return (this.#round ??= this.#run().finally(() => (this.#round = undefined)));
  }

  async #run(): Promise<ReadinessReport> {
    const results = await Promise.all(this.#checks.map(([, check]) => bounded(check, this.timeoutMs)));
    const checks = Object.fromEntries(this.#checks.map(([name], i) => [name, results[i]!]));
    const report = { ready: results.every((r) => r.ok), checks };
    this.#last = report;
    return report;
  }

  close(): Promise<void> {
    return this.#redis?.close() ?? Promise.resolve();
  }
}

/** Run one check with its own deadline: it is aborted, and counted failed, once `timeoutMs` has passed. */
async function bounded(check: (signal: AbortSignal) => Promise<void>, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = Object.assign(new Error('timeout'), { code: 'timeout' });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    await Promise.race([check(controller.signal), timeout]);
    return { ok: true, ms: elapsed(started) };
  } catch (err) {
    return { ok: false, ms: elapsed(started), error: errorCode(err) };
  } finally {
    clearTimeout(timer);
  }
}

const elapsed = (since: number) => Math.round(performance.now() - since);

/** A code or class name only: driver messages may quote a host, a user or a URL. */
function errorCode(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown } | undefined;
  if (typeof e?.code === 'string' && /^[\w.-]{1,64}$/.test(e.code)) return e.code;
  if (typeof e?.name === 'string' && e.name !== 'Error' && /^[\w.-]{1,64}$/.test(e.name)) return e.name;
  return 'error';
}

import type { Config } from '../../platform/config.js';
import { positiveInt } from '../../platform/settings/int.js';

/**
 * How this instance takes part in jobs, parsed once from the environment.
 *
 * - `MANIFOLD_ROLE`: `all` (default) serves HTTP and runs jobs; `api` serves HTTP and
 *   only enqueues (its long-running synchronous calls wait for a worker); `worker`
 *   runs jobs and serves nothing public (only /health and /metrics). `api` and
 *   `worker` need `REDIS_URL`: the queue between them lives there.
 * - Unfinished jobs per key are a tier limit (auth/tiers.ts: `TEST_KEY_MAX_JOBS`,
 *   `PERSONAL_KEY_MAX_JOBS`), so one key (the shared test key above all) cannot fill the queue.
 * - `JOBS_CONCURRENCY`: jobs one worker runs at once.
 * - `JOBS_LOCK_MS` (with REDIS_URL): how long a worker's hold on a running job lasts
 *   without renewal (BullMQ's lockDuration; renewed every half of it while the worker
 *   lives). A job whose worker died is run again by another worker within about 1.5×
 *   this (bullmq-queue.ts).
 * - `JOBS_RECONCILE_MS`: how often the reconciler (reconcile.ts) looks for unfinished
 *   records the queue does not hold (an instance killed between recording a job and
 *   queueing it), and how old such a record must be before it is looked at.
 * - `JOBS_MAX_AGE_MS`: an unfinished job older than this is failed by the reconciler and
 *   never counts against its key's limit, even while no reconciler runs.
 * - Webhooks: `WEBHOOK_SECRET` (HMAC key; never logged), `WEBHOOK_ATTEMPTS`,
 *   `WEBHOOK_BACKOFF_MS` (first retry delay, doubled each time), `WEBHOOK_TIMEOUT_MS`
 *   (per attempt), `WEBHOOK_CONCURRENCY` (deliveries in flight per worker, all receivers),
 *   `WEBHOOK_RECEIVER_CONCURRENCY` (in flight per receiver, so a receiver that hangs holds
 *   at most this many of them and delays no other receiver).
 */
export type Role = 'api' | 'worker' | 'all';
export const ROLES: readonly Role[] = ['api', 'worker', 'all'];
/** All a `worker` instance answers over HTTP (for health checks and scrapes). */
export const WORKER_ROUTES: readonly string[] = ['GET /health', 'GET /health/live', 'GET /health/ready', 'GET /metrics'];

export interface JobSettings {
  role: Role;
  /** Redis holds the queue (BullMQ); without it the queue is in this process. */
  redisUrl?: string;
  concurrency: number;
  /** BullMQ's job lock, ms (JOBS_LOCK_MS). */
  lockMs: number;
  /** JOBS_RECONCILE_MS: the reconciler's period, and the age from which an unfinished record must be on the queue. */
  reconcileMs: number;
  /** JOBS_MAX_AGE_MS: past this an unfinished job is failed, and counts against its key no longer. */
  maxAgeMs: number;
  webhook: { secret?: string; attempts: number; backoffMs: number; timeoutMs: number; concurrency: number; perReceiver: number };
}

/**
 * 10 s: a killed worker's job runs again ~10-15 s later (BullMQ's 30 s default took
 * ~73 s), while a healthy job is safe as long as its worker's event loop is never
 * blocked for ~5 s (heavy work runs in child processes and pools).
 */
const LOCK_MS = 10_000;
/** Below a second, renewals (every half lock) would be a steady load on Redis and any pause would drop jobs. */
const MIN_LOCK_MS = 1000;

function lockMs(env: Config['env']): number {
  const ms = positiveInt(env, 'JOBS_LOCK_MS', LOCK_MS);
  if (ms < MIN_LOCK_MS) throw new Error(`JOBS_LOCK_MS must be at least ${MIN_LOCK_MS} (milliseconds), got "${env.JOBS_LOCK_MS}"`);
  return ms;
}

/**
 * 15 s: a record left unqueued by a crash is queued again 15-30 s later. Queueing it again is
 * harmless when the first attempt landed after all (the queue entry's id is the record's).
 */
const RECONCILE_MS = 15_000;
/**
 * 1 hour: four times the longest endpoint timeout (15 minutes), so a job waiting behind others
 * or retried after a worker died still runs; a bot's user has long stopped waiting by then.
 */
const MAX_AGE_MS = 3_600_000;

/**
 * The job settings of a configuration, parsed (and checked: a bad value stops the boot). An
 * engine parses them once, when it makes its Jobs (createEngine), which holds them; nothing
 * looks them up by the configuration object.
 */
export function jobSettings(config: Config): JobSettings {
  const { env } = config;
  const role = (env.MANIFOLD_ROLE ?? 'all') as Role;
  if (!ROLES.includes(role)) throw new Error(`MANIFOLD_ROLE must be one of ${ROLES.join(', ')}, got "${env.MANIFOLD_ROLE}"`);
  if (role !== 'all' && !config.redisUrl)
    throw new Error(`MANIFOLD_ROLE=${role} needs REDIS_URL: the job queue between API instances and workers lives in Redis`);
  return Object.freeze({
    role,
    redisUrl: config.redisUrl,
    concurrency: positiveInt(env, 'JOBS_CONCURRENCY', 2),
    lockMs: lockMs(env),
    reconcileMs: positiveInt(env, 'JOBS_RECONCILE_MS', RECONCILE_MS),
    maxAgeMs: positiveInt(env, 'JOBS_MAX_AGE_MS', MAX_AGE_MS),
    webhook: {
      secret: env.WEBHOOK_SECRET,
      attempts: positiveInt(env, 'WEBHOOK_ATTEMPTS', 5),
      backoffMs: positiveInt(env, 'WEBHOOK_BACKOFF_MS', 5000),
      timeoutMs: positiveInt(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
      concurrency: positiveInt(env, 'WEBHOOK_CONCURRENCY', 64),
      perReceiver: positiveInt(env, 'WEBHOOK_RECEIVER_CONCURRENCY', 2),
    },
  });
}

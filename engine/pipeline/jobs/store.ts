import type { Kysely, Selectable } from 'kysely';
import { monotonicFactory } from 'ulid';
import { databaseOf, type Database, type DatabaseSource } from '../../platform/db/database.js';
import type { JobsTable, Tables } from '../../platform/db/tables.js';

/**
 * The records of async jobs, shared by every instance through the database (the
 * queue that hands them to workers is engine/pipeline/jobs/queue.ts). A record is the truth
 * about a job: the queue carries only its id, so a job enqueued on one instance is
 * run by any worker and read back on any instance, and survives their restarts.
 * A job belongs to the key that submitted it: `get` with another key finds nothing.
 */
export type JobStatus = JobsTable['status'];
export const JOB_STATUSES: readonly JobStatus[] = ['queued', 'active', 'completed', 'failed', 'cancelled'];

/** A job in one of these has its answer (or none, cancelled): nothing runs it any more. */
export const isFinished = (status: JobStatus): boolean => status !== 'queued' && status !== 'active';

/** The outcome of a cancel: the record now cancelled, a job that had already finished (its record), or none of this key's. */
export type CancelOutcome = { cancelled: JobRecord } | { finished: JobRecord } | { absent: true };

/** What a failed job reports: the same `{error, message}` its synchronous call would have answered. */
export interface JobError {
  error: string;
  message: string;
  /** The HTTP status the synchronous call would have had (kept so a waiting synchronous call answers the same). */
  status?: number;
}

export interface JobRecord {
  id: string;
  keyId: string;
  /** The endpoint id, `METHOD path` (`GET /api/download/ytmp3`). */
  endpoint: string;
  status: JobStatus;
  progress: number;
  stage: string | null;
  /** The validated parameters the handler runs with. */
  params: Record<string, unknown>;
  result?: unknown;
  error?: JobError;
  callbackUrl: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export interface NewJob {
  keyId: string;
  endpoint: string;
  params: Record<string, unknown>;
  callbackUrl?: string;
}

type Row = Selectable<JobsTable>;

const toRecord = (row: Row): JobRecord => ({
  id: row.id,
  keyId: row.key_id,
  endpoint: row.endpoint,
  status: row.status,
  progress: Number(row.progress),
  stage: row.stage ?? null,
  params: JSON.parse(row.params) as Record<string, unknown>,
  ...(row.result !== null && { result: JSON.parse(row.result) as unknown }),
  ...(row.error !== null && { error: JSON.parse(row.error) as JobError }),
  callbackUrl: row.callback_url,
  createdAt: row.created_at,
  startedAt: row.started_at,
  finishedAt: row.finished_at,
});

const UNFINISHED: JobStatus[] = ['queued', 'active'];
/** Monotonic within a millisecond, so ids sort in creation order even for jobs made at once. */
const nextId = monotonicFactory();

/**
 * The first key of the PostgreSQL advisory locks that serialise one key's submissions
 * (the second is a hash of the key id). Two-key locks are a space of their own, apart
 * from the one-key bigint lock Kysely's migrator takes.
 */
const SUBMISSIONS_LOCK = 0x6a6f6273; // 'jobs'

/**
 * Unfinished jobs of `keyId` created after `since` (ISO time), on the database or inside a
 * transaction. An older unfinished record is one the workers lost (or the reconciler is about
 * to fail): it never counts, so no crash can block a key for longer than the bound.
 */
async function countPending(kysely: Kysely<Tables>, keyId: string, since: string): Promise<number> {
  const row = await kysely
    .selectFrom('jobs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('key_id', '=', keyId)
    .where('status', 'in', UNFINISHED)
    .where('created_at', '>', since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export class JobStore {
  readonly #db: () => Database;
  readonly #now: () => Date;
  readonly #maxAgeMs: number;

  /**
   * On the engine's database, or on one given database (tests).
   * `maxAgeMs` (JOBS_MAX_AGE_MS): how long an unfinished job counts against its key.
   */
  constructor(source: DatabaseSource, options: { now?: () => Date; maxAgeMs?: number } = {}) {
    this.#db = () => databaseOf(source);
    this.#now = options.now ?? (() => new Date());
    this.#maxAgeMs = options.maxAgeMs ?? Infinity;
  }

  /** ISO time `ms` before now (created_at is ISO UTC text, which sorts as time does). */
  #ago(ms: number): string {
    return Number.isFinite(ms) ? new Date(this.#now().getTime() - ms).toISOString() : '';
  }

  async #kysely() {
    const db = this.#db();
    await db.ready;
    return db.kysely;
  }

  /** Record a new job, `queued`. Ids are ULIDs: unguessable enough (80 random bits) and sorted by creation. */
  async create(job: NewJob): Promise<JobRecord> {
    const row = this.#newRow(job);
    await (await this.#kysely()).insertInto('jobs').values(row).execute();
    return toRecord(row);
  }

  /**
   * Record a new job unless its key already has `limit` unfinished ones: then nothing is
   * recorded and the count is returned. The count and the insert are one step, so
   * submissions of one key racing each other (in this process or on other instances)
   * never overshoot the limit. Both run in one transaction:
   * - SQLite: Kysely's transactions here begin IMMEDIATE (engine/platform/db/connect.ts), which
   *   takes the database's write lock at BEGIN; the process's single connection is held
   *   for the whole transaction, and another process waits for the lock (busy_timeout).
   * - PostgreSQL: a transaction-scoped advisory lock on the key, taken in a statement of
   *   its own before the count. Under READ COMMITTED each statement reads a fresh
   *   snapshot, so the count, begun after the lock was granted, sees the job the previous
   *   holder committed as it released the lock. Chosen over SERIALIZABLE (the loser
   *   fails with a serialization error and would need a retry loop) and over SELECT …
   *   FOR UPDATE (a key with no unfinished jobs has no row to lock); it locks only this
   *   key's submissions (a hash collision merely makes two keys take turns) and is
   *   released by COMMIT or ROLLBACK, also when the connection dies.
   */
  async createWithin(limit: number, job: NewJob): Promise<{ job: JobRecord } | { pending: number }> {
    const db = this.#db();
    await db.ready;
    const row = this.#newRow(job);
    return db.kysely.transaction().execute(async (trx) => {
      if (db.dialect === 'postgres') {
        // Kysely loads on first use, never at boot (a value import here cost every start ~130 ms)
        const { sql } = await import('kysely');
        await sql`select pg_advisory_xact_lock(${sql.lit(SUBMISSIONS_LOCK)}, hashtext(${job.keyId}))`.execute(trx);
      }
      const pending = await countPending(trx, job.keyId, this.#ago(this.#maxAgeMs));
      if (pending >= limit) return { pending };
      await trx.insertInto('jobs').values(row).execute();
      return { job: toRecord(row) };
    });
  }

  #newRow(job: NewJob): Row {
    return {
      id: nextId().toLowerCase(),
      key_id: job.keyId,
      endpoint: job.endpoint,
      status: 'queued',
      progress: 0,
      stage: null,
      params: JSON.stringify(job.params),
      result: null,
      error: null,
      callback_url: job.callbackUrl ?? null,
      created_at: this.#now().toISOString(),
      started_at: null,
      finished_at: null,
    };
  }

  /** A job by id; with `keyId`, only if that key owns it (another key's job is as absent as an unknown one). */
  async get(id: string, keyId?: string): Promise<JobRecord | undefined> {
    let query = (await this.#kysely()).selectFrom('jobs').selectAll().where('id', '=', id);
    if (keyId !== undefined) query = query.where('key_id', '=', keyId);
    const row = await query.executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * Mark a job `active` (a worker took it; a job taken again after its worker died
   * starts over from 0 %). Undefined when it is gone or already finished: nothing to run.
   */
  async start(id: string): Promise<JobRecord | undefined> {
    const kysely = await this.#kysely();
    const updated = await kysely
      .updateTable('jobs')
      .set({ status: 'active', progress: 0, stage: null, started_at: this.#now().toISOString() })
      .where('id', '=', id)
      .where('status', 'in', UNFINISHED)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return undefined;
    return this.get(id);
  }

  /**
   * Progress of a running job, 0–100 (clamped, whole numbers), and what it is doing. False
   * when the record is no longer `active` (cancelled, or finished by the reconciler): the
   * runner then stops the work, even if the cancel's message never reached it.
   */
  async progress(id: string, percent: number, stage?: string): Promise<boolean> {
    const progress = Math.max(0, Math.min(100, Math.round(percent)));
    const updated = await (
      await this.#kysely()
    )
      .updateTable('jobs')
      .set({ progress, ...(stage !== undefined && { stage }) })
      .where('id', '=', id)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** The job finished with the result its synchronous call would have answered. False if it had already finished. */
  complete(id: string, result: unknown): Promise<boolean> {
    return this.#finish(id, { status: 'completed', progress: 100, result: JSON.stringify(result ?? null) });
  }

  /** The job failed with this error. False if it had already finished. */
  fail(id: string, error: JobError): Promise<boolean> {
    return this.#finish(id, { status: 'failed', error: JSON.stringify(error) });
  }

  /**
   * Record a queued or running job `cancelled`, with `error` saying by whom (what its webhook
   * and GET /api/jobs/:id report). With `keyId`, only that key's job: another key's is absent.
   * One conditional update, so a cancel racing the job's own end leaves exactly one of them
   * recorded; the loser learns which (`finished`).
   */
  async cancel(id: string, error: JobError, keyId?: string): Promise<CancelOutcome> {
    const kysely = await this.#kysely();
    let update = kysely
      .updateTable('jobs')
      .set({ status: 'cancelled', error: JSON.stringify(error), finished_at: this.#now().toISOString() })
      .where('id', '=', id)
      .where('status', 'in', UNFINISHED);
    if (keyId !== undefined) update = update.where('key_id', '=', keyId);
    const updated = await update.executeTakeFirst();
    const job = await this.get(id, keyId);
    if (!job) return { absent: true };
    return Number(updated.numUpdatedRows) > 0 ? { cancelled: job } : { finished: job };
  }

  async #finish(id: string, set: { status: JobStatus; progress?: number; result?: string; error?: string }): Promise<boolean> {
    const updated = await (
      await this.#kysely()
    )
      .updateTable('jobs')
      .set({ ...set, finished_at: this.#now().toISOString() })
      .where('id', '=', id)
      .where('status', 'in', UNFINISHED)
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) > 0;
  }

  /** Jobs of `keyId` not finished yet (queued or running): what the per-key queue limit counts. */
  async pending(keyId: string): Promise<number> {
    return countPending(await this.#kysely(), keyId, this.#ago(this.#maxAgeMs));
  }

  /**
   * Unfinished jobs created more than `ageMs` ago, oldest first, at most `limit`: what the
   * reconciler checks against the queue (reconcile.ts).
   */
  async unfinishedOlderThan(ageMs: number, limit: number): Promise<Pick<JobRecord, 'id' | 'status' | 'createdAt'>[]> {
    const rows = await (
      await this.#kysely()
    )
      .selectFrom('jobs')
      .select(['id', 'status', 'created_at'])
      .where('status', 'in', UNFINISHED)
      .where('created_at', '<=', this.#ago(ageMs))
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, status: r.status, createdAt: r.created_at }));
  }

  /** Ids of every unfinished job, oldest first (the in-process runner resumes them at boot). */
  async unfinished(): Promise<string[]> {
    const rows = await (await this.#kysely()).selectFrom('jobs').select('id').where('status', 'in', UNFINISHED).orderBy('created_at').orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /**
   * One page of jobs, newest first: of one key (`keyId`) or of every key (the admin listing),
   * optionally of one status. `after` is the id of the last job of the previous page: ids are
   * ULIDs, sorted as their creation, so the next page is every id below it and a job created
   * meanwhile never shifts a page. One more row than `limit` is read to tell whether more follow.
   */
  async list(filter: { keyId?: string; status?: JobStatus; after?: string; limit: number }): Promise<{ jobs: JobRecord[]; more: boolean }> {
    let query = (await this.#kysely()).selectFrom('jobs').selectAll();
    if (filter.keyId !== undefined) query = query.where('key_id', '=', filter.keyId);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.after !== undefined) query = query.where('id', '<', filter.after);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(filter.limit + 1)
      .execute();
    return { jobs: rows.slice(0, filter.limit).map(toRecord), more: rows.length > filter.limit };
  }

  /** Jobs per status, every status present (0 when none): the `manifold_jobs` gauge. */
  async counts(): Promise<Record<JobStatus, number>> {
    const rows = await (
      await this.#kysely()
    )
      .selectFrom('jobs')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(JOB_STATUSES.map((s) => [s, 0])) as Record<JobStatus, number>;
    for (const row of rows) counts[row.status as JobStatus] = Number(row.n);
    return counts;
  }
}

import type { Principal } from '../auth/authenticate.js';
import { readyDatabase, type DatabaseSource } from '../db/database.js';
import { ApiError } from '../../core/errors.js';
import { nextUtcMidnight, utcDay } from '../../core/utc-day.js';

/**
 * Daily quotas per tier (TEST_KEY_DAILY, PERSONAL_KEY_DAILY): requests per key and
 * UTC day, exact across instances. The count lives in the shared database and each
 * request is one statement that checks and takes in one step —
 *   INSERT … ON CONFLICT (key_id, day) DO UPDATE SET count = count + 1 WHERE count < limit RETURNING count
 * — so no two instances can both take the last request of a day (the row lock on
 * PostgreSQL, the write lock on SQLite). No row back means the quota is used up, and
 * nothing was taken. Keys of a tier without a quota never reach this.
 */
export interface QuotaState {
  limit: number;
  used: number;
  remaining: number;
  /** Next 00:00 UTC, ISO-8601. */
  resetsAt: string;
}

export const quotaExceeded = (principal: Principal, limit: number, now: number) => {
  const seconds = String(Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000)));
  return new ApiError(
    'daily_quota_exceeded',
    `Daily quota of ${limit} requests for ${principal.ownLimits?.daily ? 'this key' : `${principal.tier} keys`} used up; it resets at 00:00 UTC, in ${seconds} s`,
    { headers: { 'Retry-After': seconds } },
  );
};

export class DailyQuota {
  readonly #source: DatabaseSource;
  readonly #now: () => number;

  constructor(source: DatabaseSource, options: { now?: () => number } = {}) {
    this.#source = source;
    this.#now = options.now ?? Date.now;
  }

  /** Take one request of today's quota for `principal` (whose `daily` is set); throws 429 daily_quota_exceeded when none is left. */
  async take(principal: Principal & { daily: number }): Promise<void> {
    const now = this.#now();
    const db = await readyDatabase(this.#source);
    const taken = await db.kysely
      .insertInto('daily_quota')
      .values({ key_id: principal.keyId, day: utcDay(now), count: 1 })
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'day'])
          .doUpdateSet((eb) => ({ count: eb('daily_quota.count', '+', 1) }))
          .where('daily_quota.count', '<', principal.daily),
      )
      .returning('count')
      .executeTakeFirst();
    if (!taken) throw quotaExceeded(principal, principal.daily, now);
  }

  /** Today's quota of `principal`, or null when its tier has none. */
  async state(principal: Principal): Promise<QuotaState | null> {
    if (principal.daily === undefined) return null;
    const now = this.#now();
    const db = await readyDatabase(this.#source);
    const row = await db.kysely
      .selectFrom('daily_quota')
      .select('count')
      .where('key_id', '=', principal.keyId)
      .where('day', '=', utcDay(now))
      .executeTakeFirst();
    const used = Number(row?.count ?? 0);
    return { limit: principal.daily, used, remaining: Math.max(0, principal.daily - used), resetsAt: new Date(nextUtcMidnight(now)).toISOString() };
  }
}

import type { HttpMethod } from '../../core/manifest-types.js';
import { databaseOf, type Database, type DatabaseSource } from './database.js';
import { DAY_MS, nextUtcMidnight, utcDay } from '../../core/utc-day.js';

/**
 * Requests per key, endpoint and UTC day, shared by every instance through the
 * database. Counting is in memory (a Map increment on the request path) and written
 * in batches — one upsert per key/endpoint/day pair per flush, every `flushMs` or
 * when `maxPending` pairs wait — so a busy instance makes a few writes a second,
 * not one per request. A failed write keeps its counts for the next flush. Reads
 * add this instance's unwritten counts, so a client sees its own requests at once;
 * other instances' requests appear within `flushMs`.
 */
export interface UsageTotals {
  today: number;
  total: number;
}

/**
 * What one key spent on one endpoint in one UTC day besides its requests (counted at
 * admission): the answers by status class, the response body bytes sent (streamed
 * answers included, counted as they are written), the AI tokens the provider reported
 * and the milliseconds of media downloaded or converted (as yt-dlp and ffmpeg report
 * the media's duration), async jobs' work included.
 */
export interface UsageFigures {
  status2xx: number;
  status3xx: number;
  status4xx: number;
  status5xx: number;
  bytesOut: number;
  promptTokens: number;
  completionTokens: number;
  mediaMs: number;
}

/** Work a request or a job did that the key pays for, as its handler reported it (Call.meter). */
export interface Work {
  promptTokens?: number;
  completionTokens?: number;
  mediaMs?: number;
}

/** One answered request, as pipeline/usage-meter.ts reports it. */
export interface Answered extends Work {
  status: number;
  bytesOut: number;
}

export const NO_FIGURES: Readonly<UsageFigures> = Object.freeze({
  status2xx: 0,
  status3xx: 0,
  status4xx: 0,
  status5xx: 0,
  bytesOut: 0,
  promptTokens: 0,
  completionTokens: 0,
  mediaMs: 0,
});
const FIGURES = Object.keys(NO_FIGURES) as (keyof UsageFigures)[];

export interface UsageRow extends UsageFigures {
  keyId: string;
  endpoint: string;
  day: string;
  count: number;
}

/** A sum over matching rows: requests and every figure. */
export type UsageSum = UsageFigures & { count: number };

/** Which counts a report covers; every field optional (absent: all). */
export interface UsageFilter {
  keyId?: string;
  /** An endpoint id (`GET /api/fun/quote`), or a path alone for every method of it. */
  endpoint?: string;
  /** First and last UTC day, inclusive, `YYYY-MM-DD`. */
  from?: string;
  to?: string;
  /** Most rows (and most entries per key/endpoint/day sum) returned; default 1000. */
  limit?: number;
}

export interface UsageReport {
  rows: UsageRow[];
  /** More rows matched than `limit`: the sums still cover them all. */
  truncated: boolean;
  total: number;
  /** Every figure summed over the matching rows. */
  sums: UsageSum;
  byKey: ({ keyId: string } & UsageSum)[];
  byEndpoint: ({ endpoint: string } & UsageSum)[];
  byDay: ({ day: string } & UsageSum)[];
}

export interface UsageOptions {
  flushMs?: number;
  maxPending?: number;
  now?: () => number;
}

/** A waiting entry: requests counted at admission and the figures of the answers. */
type Pending = UsageFigures & { count: number };

/**
 * Counts waiting to be written, by UTC day, key and endpoint. Nested maps rather than one
 * map of joined ids: count() runs on every keyed request, and a joined id was a new string
 * to build and hash each time (~0.35 µs of a request's ~16 µs without sockets).
 */
class PendingCounts {
  readonly #days = new Map<string, Map<string, Map<string, Pending>>>();
  /** Distinct day/key/endpoint entries (each one row of the next write). */
  size = 0;

  /** The entry of `day`, `keyId` and `endpoint`, made at zero when new. */
  at(day: string, keyId: string, endpoint: string): Pending {
    let keys = this.#days.get(day);
    if (!keys) this.#days.set(day, (keys = new Map()));
    let endpoints = keys.get(keyId);
    if (!endpoints) keys.set(keyId, (endpoints = new Map()));
    let entry = endpoints.get(endpoint);
    if (!entry) {
      endpoints.set(endpoint, (entry = { count: 0, ...NO_FIGURES }));
      this.size++;
    }
    return entry;
  }

  add(row: UsageRow): void {
    const entry = this.at(row.day, row.keyId, row.endpoint);
    entry.count += row.count;
    for (const f of FIGURES) entry[f] += row[f];
  }

  *rows(keyId?: string): Generator<UsageRow> {
    for (const [day, keys] of this.#days)
      for (const [key, endpoints] of keys) {
        if (keyId !== undefined && key !== keyId) continue;
        for (const [endpoint, entry] of endpoints) yield { keyId: key, endpoint, day, ...entry };
      }
  }
}
/** The usage_daily column of each figure (migration 0007-usage-figures). */
const COLUMN_OF = {
  status2xx: 'requests_2xx',
  status3xx: 'requests_3xx',
  status4xx: 'requests_4xx',
  status5xx: 'requests_5xx',
  bytesOut: 'bytes_out',
  promptTokens: 'prompt_tokens',
  completionTokens: 'completion_tokens',
  mediaMs: 'media_ms',
} as const satisfies Record<keyof UsageFigures, string>;
type FigureColumn = (typeof COLUMN_OF)[keyof UsageFigures];
const COLUMNS = Object.values(COLUMN_OF) as FigureColumn[];

const toColumns = (figures: UsageFigures) => Object.fromEntries(FIGURES.map((f) => [COLUMN_OF[f], figures[f]])) as Record<FigureColumn, number>;

/** Figures from a row of columns (sums come back as strings from PostgreSQL's bigint: Number() them). */
const fromColumns = (row: Record<string, unknown>, count: unknown): UsageSum =>
  Object.fromEntries([['count', Number(count ?? 0)], ...FIGURES.map((f) => [f, Number(row[COLUMN_OF[f]] ?? 0)])]) as UsageSum;

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The endpoint ids a filter names: itself when it has a method, else the path under every method. */
const endpointIds = (endpoint: string): string[] => (endpoint.includes(' ') ? [endpoint] : METHODS.map((m) => `${m} ${endpoint}`));

export class UsageCounter {
  readonly #db: () => Database;
  readonly #flushMs: number;
  readonly #maxPending: number;
  readonly #now: () => number;
  #pending = new PendingCounts();
  #timer?: NodeJS.Timeout;
  #flushing?: Promise<void>;
  /** Moves each time a flush takes the waiting counts: a read that saw it move may have missed a batch in flight. */
  #generation = 0;
  /** Today's UTC day and when it ends: count() runs on every keyed request, a Date per call is not needed. */
  #today = '';
  #todayEnds = -Infinity;

  /** On the engine's database, or on one given database (tests). */
  constructor(source: DatabaseSource, options: UsageOptions = {}) {
    this.#db = () => databaseOf(source);
    this.#flushMs = options.flushMs ?? 1000;
    this.#maxPending = options.maxPending ?? 10_000;
    this.#now = options.now ?? Date.now;
  }

  /** Count one request of `keyId` to `endpoint` (an endpoint id such as `GET /api/fun/quote`). */
  count(keyId: string, endpoint: string, n = 1): void {
    this.#pending.at(this.#day(), keyId, endpoint).count += n;
    this.#scheduled();
  }

  /**
   * Add one answer of `keyId` to `endpoint`: its status class, body bytes and AI tokens.
   * Its request was counted when admitted (count()); a streamed answer is reported when it
   * ends, so its day is the day it ended.
   */
  answered(keyId: string, endpoint: string, answer: Answered): void {
    const entry = this.#pending.at(this.#day(), keyId, endpoint);
    const hundred = Math.floor(answer.status / 100);
    if (hundred === 2) entry.status2xx++;
    else if (hundred === 3) entry.status3xx++;
    else if (hundred === 4) entry.status4xx++;
    else if (hundred === 5) entry.status5xx++;
    entry.bytesOut += answer.bytesOut;
    this.#addWork(entry, answer);
    this.#scheduled();
  }

  /**
   * Add work of `keyId` on `endpoint` that no answer carries: an async job's (its request
   * and its 202 were counted when it was submitted).
   */
  worked(keyId: string, endpoint: string, work: Work): void {
    this.#addWork(this.#pending.at(this.#day(), keyId, endpoint), work);
    this.#scheduled();
  }

  #addWork(entry: Pending, work: Work): void {
    entry.promptTokens += work.promptTokens ?? 0;
    entry.completionTokens += work.completionTokens ?? 0;
    entry.mediaMs += Math.round(work.mediaMs ?? 0);
  }

  /** A flush soon: at once when many entries wait, else after flushMs. */
  #scheduled(): void {
    if (this.#pending.size >= this.#maxPending) void this.flush().catch(() => undefined);
    else this.#timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.#flushMs).unref();
  }

  #day(): string {
    const now = this.#now();
    // a clock moved backwards (tests) re-derives the day as well
    if (now >= this.#todayEnds || now < this.#todayEnds - DAY_MS) {
      this.#today = utcDay(now);
      this.#todayEnds = nextUtcMidnight(now);
    }
    return this.#today;
  }

  /** Write the waiting counts now (one flush at a time; a call during a flush waits for it, then flushes what came meanwhile). */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => undefined);
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const batch = this.#pending;
    this.#pending = new PendingCounts();
    this.#generation++;
    this.#flushing = this.#write(batch)
      .catch((error: unknown) => {
        // kept for the next flush: merged with what was counted meanwhile
        for (const row of batch.rows()) this.#pending.add(row);
        this.#timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.#flushMs).unref();
        throw error;
      })
      .finally(() => (this.#flushing = undefined));
    return this.#flushing;
  }

  async #write(batch: PendingCounts): Promise<void> {
    const db = this.#db();
    await db.ready;
    const rows = Array.from(batch.rows(), (row) => ({ key_id: row.keyId, endpoint: row.endpoint, day: row.day, count: row.count, ...toColumns(row) }));
    await db.kysely.transaction().execute(async (trx) => {
      // in chunks: SQLite allows at most 32,766 bound values per statement
      for (let i = 0; i < rows.length; i += 1000) {
        await trx
          .insertInto('usage_daily')
          .values(rows.slice(i, i + 1000))
          .onConflict((oc) =>
            oc
              .columns(['key_id', 'day', 'endpoint'])
              .doUpdateSet((eb) => Object.fromEntries((['count', ...COLUMNS] as const).map((c) => [c, eb(`usage_daily.${c}`, '+', eb.ref(`excluded.${c}`))]))),
          )
          .execute();
      }
    });
  }

  /** Requests of `keyId` today (UTC) and ever, every instance's written counts plus this one's waiting ones. */
  async totals(keyId: string): Promise<UsageTotals> {
    const today = utcDay(this.#now());
    for (;;) {
      while (this.#flushing) await this.#flushing.catch(() => undefined);
      const generation = this.#generation;
      const totals = await this.#written(keyId, today);
      // a flush took counts while the table was read: they may be in neither, so read again once written
      if (generation !== this.#generation) continue;
      for (const { day, count } of this.#pending.rows(keyId)) {
        totals.total += count;
        if (day === today) totals.today += count;
      }
      return totals;
    }
  }

  async #written(keyId: string, today: string): Promise<UsageTotals> {
    const db = this.#db();
    await db.ready;
    const row = await db.kysely
      .selectFrom('usage_daily')
      .select((eb) => [
        eb.fn.sum<number>('count').as('total'),
        eb.fn.sum<number>(eb.case().when('day', '=', today).then(eb.ref('count')).else(0).end()).as('today'),
      ])
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    return { today: Number(row?.today ?? 0), total: Number(row?.total ?? 0) };
  }

  /**
   * Written counts per key, endpoint and day matching `filter`, newest day first (at most
   * `limit` rows), with the sums over every matching row: in all, per key, per endpoint
   * (the `limit` largest each) and per day. Call flush() first to include this instance's waiting counts.
   */
  async report(filter: UsageFilter = {}): Promise<UsageReport> {
    const db = this.#db();
    await db.ready;
    const limit = filter.limit ?? 1000;
    const matching = () => {
      let query = db.kysely.selectFrom('usage_daily');
      if (filter.keyId) query = query.where('key_id', '=', filter.keyId);
      if (filter.endpoint) query = query.where('endpoint', 'in', endpointIds(filter.endpoint));
      if (filter.from) query = query.where('day', '>=', filter.from);
      if (filter.to) query = query.where('day', '<=', filter.to);
      return query;
    };
    const sum = matching().select((eb) => [eb.fn.sum<number>('count').as('requests'), ...COLUMNS.map((c) => eb.fn.sum<number>(c).as(c))]);
    const [rows, total, byKey, byEndpoint, byDay] = await Promise.all([
      matching()
        .selectAll()
        .orderBy('day', 'desc')
        .orderBy('key_id')
        .orderBy('endpoint')
        .limit(limit + 1)
        .execute(),
      sum.executeTakeFirst(),
      sum.select('key_id').groupBy('key_id').orderBy('requests', 'desc').orderBy('key_id').limit(limit).execute(),
      sum.select('endpoint').groupBy('endpoint').orderBy('requests', 'desc').orderBy('endpoint').limit(limit).execute(),
      sum.select('day').groupBy('day').orderBy('day', 'desc').limit(limit).execute(),
    ]);
    const sums = fromColumns(total ?? {}, total?.requests);
    return {
      rows: rows.slice(0, limit).map((r) => ({ keyId: r.key_id, endpoint: r.endpoint, day: r.day, ...fromColumns(r, r.count) })),
      truncated: rows.length > limit,
      total: sums.count,
      sums,
      byKey: byKey.map((r) => ({ keyId: r.key_id, ...fromColumns(r, r.requests) })),
      byEndpoint: byEndpoint.map((r) => ({ endpoint: r.endpoint, ...fromColumns(r, r.requests) })),
      byDay: byDay.map((r) => ({ day: r.day, ...fromColumns(r, r.requests) })),
    };
  }

  /** Write what is waiting and stop the timer (at shutdown). */
  async close(): Promise<void> {
    await this.flush();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

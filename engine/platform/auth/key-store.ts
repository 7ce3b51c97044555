import crypto from 'node:crypto';
import { invalidParameter } from '../../core/errors.js';
import type { Transaction } from 'kysely';
import { databaseOf, type Database, type DatabaseSource } from '../db/database.js';
import type { Tables } from '../db/tables.js';
import { RevisionWatch } from '../db/revision-watch.js';
import { isUnreachable } from '../db/unavailable.js';
import { KEY_CACHE_TTL_S } from './settings.js';
import { newPersonalKey } from './key-format.js';
import type { Revocations } from './revocations.js';
import { compileRules, MAX_LABEL_LENGTH, type CompiledRules, type KeyFields, type KeyRules } from './key-rules.js';
import { digestOf, sha256Hex } from './constant-time.js';
import { DEFAULT_TIER, TIERS, isTier, type Tier } from './tiers.js';

/**
 * Personal API keys. A key (key-format.ts: `mf_` + 32 random bytes, base64url) is shown
 * once, at creation; the database keeps only its SHA-256.
 *
 * Verified keys are remembered by digest (never the key) so a request need not
 * query the table, but only while nothing could have changed it, wherever the
 * change was made:
 * - SQLite: every verify reads `PRAGMA data_version` (no query, no I/O), which moves
 *   whenever another connection (the keys CLI in another process) commits;
 * - PostgreSQL: every revocation bumps the `api_keys` row of `revisions` in the same
 *   transaction, and every verify reads that row first (one indexed read, shared by
 *   concurrent requests: see RevisionWatch), so an instance sees a revocation made
 *   by any other on its very next request.
 * Writes through any KeyStore of the same database also clear the memory at once. A
 * change of a key's rules (update) or secret (rotate) is such a write too: it bumps the
 * revision like a revocation, so every instance reads the key again on its next request.
 * A rotated key's previous secret is remembered with the end of its grace, checked on
 * every use, cached or not.
 *
 * While the database cannot be reached (its circuit open, or the revision read failing
 * with database_unavailable), a key verified here is still accepted for `cacheTtlMs`
 * (KEY_CACHE_TTL_S) after the revision was last read: a database blip costs no known
 * key its service, and a revocation this instance could not read is honoured within
 * that time — at once when it comes through Redis (revocations.ts), which drops the key
 * from the memory and refuses it. Unknown keys need the database: 503 database_unavailable.
 */

/** A stored key as operators see it: never the key, never its hash. */
export interface KeyRecord extends KeyRules {
  id: string;
  tier: Tier;
  label: string | null;
  note: string | null;
  createdAt: string;
  revokedAt: string | null;
  /** Within a minute or so (see touch). */
  lastUsedAt: string | null;
}

/** A live key as the request path sees it: its record and its rules, compiled once (and cached with it). */
export interface VerifiedKey extends KeyRecord {
  readonly compiled: CompiledRules;
}

/** A freshly created key: the only time the plain key exists outside the client. */
export interface CreatedKey extends KeyRecord {
  key: string;
}

/** A key given a new secret: the new key (shown once), and until when the previous one still works. */
export interface RotatedKey extends CreatedKey {
  previousValidUntil: string | null;
}

/** The longest grace a rotated key's previous secret may have: a month. */
export const MAX_ROTATION_GRACE_S = 30 * 86_400;

export { MAX_LABEL_LENGTH };

const COLUMNS = ['id', 'tier', 'label', 'created_at', 'revoked_at', 'rpm', 'daily', 'expires_at', 'allow', 'ips', 'note', 'last_used_at'] as const;

type KeyRow = Pick<Tables['api_keys'], (typeof COLUMNS)[number]>;

const jsonList = (text: string | null): readonly string[] | null => (text === null ? null : Object.freeze(JSON.parse(text) as string[]));
const optionalNumber = (value: number | string | null): number | null => (value === null ? null : Number(value));

const toRecord = (row: KeyRow): KeyRecord => ({
  id: row.id,
  tier: row.tier as Tier,
  label: row.label,
  note: row.note,
  rpm: optionalNumber(row.rpm),
  daily: optionalNumber(row.daily),
  expiresAt: row.expires_at,
  allow: jsonList(row.allow),
  ips: jsonList(row.ips),
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  lastUsedAt: row.last_used_at,
});

/** The columns of the fields given (an update sets only those). */
function toColumns(fields: KeyFields): Partial<KeyRow> {
  const columns: Partial<KeyRow> = {};
  if (fields.tier !== undefined) columns.tier = fields.tier;
  if (fields.label !== undefined) columns.label = fields.label;
  if (fields.note !== undefined) columns.note = fields.note;
  if (fields.rpm !== undefined) columns.rpm = fields.rpm;
  if (fields.daily !== undefined) columns.daily = fields.daily;
  if (fields.expiresAt !== undefined) columns.expires_at = fields.expiresAt;
  if (fields.allow !== undefined) columns.allow = fields.allow && JSON.stringify(fields.allow);
  if (fields.ips !== undefined) columns.ips = fields.ips && JSON.stringify(fields.ips);
  return columns;
}

/** last_used_at is written at most this often per key and instance. */
const TOUCH_INTERVAL_MS = 60_000;

/** Live keys verified since the keys last changed, by hex digest; shared by the KeyStores of one database. */
interface VerifiedKeys {
  revision: number;
  byDigest: Map<string, { digest: Buffer; record: VerifiedKey; until?: number }>;
  /** When (KeyStore's clock) the revision was last read: the memory is known current as of then. */
  confirmedAt: number;
  /** Digests of keys revoked as heard through Redis: refused while the database cannot say so. */
  revoked: Set<string>;
  /** The current revision: synchronous on SQLite, a shared read on PostgreSQL. */
  current(): number | Promise<number>;
}

/** Plenty for the personal keys active at once; past it the cache starts over rather than grow. */
const MAX_CACHED_KEYS = 10_000;

const verifiedKeys = new WeakMap<Database, VerifiedKeys>();

function verifiedKeysOf(db: Database): VerifiedKeys {
  let verified = verifiedKeys.get(db);
  if (verified) return verified;
  let current: () => number | Promise<number>;
  if (db.sqlite) {
    const dataVersion = db.sqlite.prepare<[], number>('PRAGMA data_version').pluck();
    current = () => dataVersion.get() ?? 0;
  } else {
    const watch = new RevisionWatch(async () => {
      const row = await db.kysely.selectFrom('revisions').select('value').where('name', '=', 'api_keys').executeTakeFirstOrThrow();
      return row.value;
    });
    current = () => watch.current();
  }
  verifiedKeys.set(db, (verified = { revision: -1, byDigest: new Map(), confirmedAt: -Infinity, revoked: new Set(), current }));
  return verified;
}

/**
 * Forget key `id`: revoked elsewhere (`refuse`: its digest is refused until the database can
 * be read again), or its rules changed (read again on its next request).
 */
function forget(verified: VerifiedKeys, id: string, refuse: boolean): void {
  for (const [hex, entry] of verified.byDigest)
    if (entry.record.id === id) {
      verified.byDigest.delete(hex);
      if (!refuse) continue;
      if (verified.revoked.size >= MAX_CACHED_KEYS) verified.revoked.clear();
      verified.revoked.add(hex);
    }
}

const verifiedKey = (record: KeyRecord): VerifiedKey => Object.freeze({ ...record, compiled: compileRules(record) });

export interface KeyStoreOptions {
  /** How long a verified key outlives the last revision read while the database cannot be reached (KEY_CACHE_TTL_S); 0: not at all. */
  cacheTtlMs?: number;
  /** Revocations told by and to the other instances (REDIS_URL). */
  revocations?: Revocations;
  /** Milliseconds, for the cache's lifetime; injectable for tests. */
  now?: () => number;
  /** Epoch milliseconds, for a rotated key's grace; injectable for tests. */
  clock?: () => number;
}

export class KeyStore {
  readonly #db: () => Database;
  readonly #cacheTtlMs: number;
  readonly #now: () => number;
  readonly #clock: () => number;
  readonly revocations?: Revocations;
  /** When (Date.now) this instance last wrote each key's last_used_at. */
  readonly #touched = new Map<string, number>();

  /** On one database, or on the engine's (reopened after a close or a failed open). */
  constructor(source: DatabaseSource, options: KeyStoreOptions = {}) {
    this.#db = () => databaseOf(source);
    this.#cacheTtlMs = options.cacheTtlMs ?? KEY_CACHE_TTL_S * 1000;
    this.#now = options.now ?? performance.now.bind(performance);
    this.#clock = options.clock ?? Date.now;
    this.revocations = options.revocations;
    this.revocations?.on('revoked', (id) => {
      // a database that never opened has nothing remembered
      const db = this.#db();
      if (!db.failed && !db.closed) forget(verifiedKeysOf(db), id, true);
    });
    this.revocations?.on('changed', (id) => {
      const db = this.#db();
      if (!db.failed && !db.closed) forget(verifiedKeysOf(db), id, false);
    });
  }

  async #ready(): Promise<Database> {
    const db = this.#db();
    await db.ready;
    return db;
  }

  /**
   * Create a key with the fields given (validated by parseKeyFields for the admin API and
   * the CLI); throws ApiError invalid_parameter for an unknown tier or an overlong label.
   */
  async create(options: KeyFields = {}): Promise<CreatedKey> {
    const tier = options.tier ?? DEFAULT_TIER;
    if (!isTier(tier)) throw invalidParameter('tier', `must be one of ${TIERS.join(', ')}`);
    const label = options.label?.trim() || null;
    if (label !== null && label.length > MAX_LABEL_LENGTH) {
      throw invalidParameter('label', `must be at most ${MAX_LABEL_LENGTH} characters`);
    }
    const key = newPersonalKey();
    const row: KeyRow = {
      id: 'key_' + crypto.randomBytes(6).toString('hex'),
      tier,
      label,
      note: null,
      rpm: null,
      daily: null,
      expires_at: null,
      allow: null,
      ips: null,
      created_at: new Date().toISOString(),
      revoked_at: null,
      last_used_at: null,
      ...toColumns({ ...options, tier, label }),
    };
    const db = await this.#ready();
    await db.kysely
      .insertInto('api_keys')
      .values({ ...row, hash: sha256Hex(key) })
      .execute();
    return { ...toRecord(row), key };
  }

  /**
   * Change a key's rules, label or note (only the fields given; null clears one). Like a
   * revocation, the change reaches every instance on its next request: the revision row
   * (PostgreSQL) or data_version (SQLite), and with Redis the changed message for an
   * instance answering from its cache. Returns the record, or undefined for an unknown id.
   */
  async update(id: string, fields: KeyFields): Promise<KeyRecord | undefined> {
    if (fields.tier !== undefined && !isTier(fields.tier)) throw invalidParameter('tier', `must be one of ${TIERS.join(', ')}`);
    const columns = toColumns(fields);
    const db = await this.#ready();
    const row = await db.kysely.transaction().execute(async (trx) => {
      if (Object.keys(columns).length > 0) {
        const changed = await trx.updateTable('api_keys').set(columns).where('id', '=', id).executeTakeFirst();
        if (changed.numUpdatedRows > 0n) await bumpRevision(trx);
      }
      return trx.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    });
    verifiedKeysOf(db).byDigest.clear();
    if (row) await this.revocations?.publishChanged(row.id);
    return row && toRecord(row);
  }

  /**
   * Record that key `id` was used: at most once a minute per key on this instance, never
   * awaited by the request (a failed write is forgotten; the next minute tries again).
   * It bumps no revision, so no instance's key cache is cleared by it on PostgreSQL; on
   * SQLite another process's write moves data_version, which costs a re-read per key.
   */
  touch(id: string): Promise<void> | undefined {
    const now = Date.now();
    const last = this.#touched.get(id);
    if (last !== undefined && now - last < TOUCH_INTERVAL_MS) return undefined;
    if (this.#touched.size >= MAX_CACHED_KEYS) this.#touched.clear();
    this.#touched.set(id, now);
    // the promise is for tests: the request path never waits for it
    return this.#ready()
      .then((db) =>
        db.kysely
          .updateTable('api_keys')
          .set({ last_used_at: new Date(now).toISOString() })
          .where('id', '=', id)
          .execute(),
      )
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /** Every key ever created, oldest first, revoked ones included (with revokedAt). */
  async list(): Promise<KeyRecord[]> {
    const db = await this.#ready();
    const rows = await db.kysely.selectFrom('api_keys').select(COLUMNS).orderBy('created_at').orderBy('id').execute();
    return rows.map(toRecord);
  }

  /**
   * Revoke a key; revoking twice keeps the first revocation time.
   * Returns the record, or undefined when no key has this id.
   */
  async revoke(id: string): Promise<KeyRecord | undefined> {
    const db = await this.#ready();
    const row = await db.kysely.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('api_keys')
        .set({ revoked_at: new Date().toISOString() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (changed.numUpdatedRows > 0n) await bumpRevision(trx);
      return trx.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    });
    verifiedKeysOf(db).byDigest.clear();
    if (row?.revoked_at) await this.revocations?.publish(row.id);
    return row && toRecord(row);
  }

  /**
   * Give key `id` a new secret, keeping its record (id, rules, usage, jobs). The previous
   * secret keeps working for `graceSeconds` (0: refused at once), then is refused like an
   * unknown key; rotating again ends an earlier grace. Undefined for an unknown or revoked id.
   */
  async rotate(id: string, graceSeconds = 0): Promise<RotatedKey | undefined> {
    if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_ROTATION_GRACE_S)
      throw invalidParameter('grace_seconds', `must be a whole number of seconds from 0 to ${MAX_ROTATION_GRACE_S}`);
    const key = newPersonalKey();
    const previousValidUntil = graceSeconds > 0 ? new Date(this.#clock() + graceSeconds * 1000).toISOString() : null;
    const db = await this.#ready();
    const row = await db.kysely.transaction().execute(async (trx) => {
      const changed = await trx
        .updateTable('api_keys')
        .set((eb) => ({ previous_hash: graceSeconds > 0 ? eb.ref('hash') : null, previous_valid_until: previousValidUntil, hash: sha256Hex(key) }))
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (changed.numUpdatedRows === 0n) return undefined;
      await bumpRevision(trx);
      return trx.selectFrom('api_keys').select(COLUMNS).where('id', '=', id).executeTakeFirst();
    });
    verifiedKeysOf(db).byDigest.clear();
    if (!row) return undefined;
    await this.revocations?.publishChanged(row.id);
    return { ...toRecord(row), key, previousValidUntil };
  }

  /** The live (not revoked) key matching the presented one, or undefined. */
  async verify(presented: string): Promise<VerifiedKey | undefined> {
    return this.verifyDigest(sha256Hex(presented));
  }

  /** verify() for a presented key already hashed (lower-case hex SHA-256). */
  async verifyDigest(hex: string): Promise<VerifiedKey | undefined> {
    const db = await this.#ready();
    const verified = verifiedKeysOf(db);
    // While the circuit is open the read fails at once (and, past the cool-down, starts the
    // background probe that closes it): a request waits at most for a read already under way.
    const asked = this.#now();
    let revision: number;
    try {
      const current = verified.current();
      revision = typeof current === 'number' ? current : await current;
    } catch (err) {
      if (!isUnreachable(err)) throw err;
      return this.#unreachable(verified, hex, err);
    }
    verified.confirmedAt = Math.max(verified.confirmedAt, asked);
    if (revision > verified.revision || (db.sqlite && revision !== verified.revision)) {
      verified.byDigest.clear();
      verified.revoked.clear();
      verified.revision = revision;
    }
    const digest = digestOf(hex);
    const known = verified.byDigest.get(hex);
    // Whether the answer came from the cache or the index, the last word is a
    // constant-time comparison of the digests: no path compares them byte by byte.
    if (known) return this.#live(known, digest);
    // the key's current secret, or a rotated key's previous one during its grace
    const row = await db.kysely
      .selectFrom('api_keys')
      .select(['hash', 'previous_hash', 'previous_valid_until', ...COLUMNS])
      .where((eb) => eb.or([eb('hash', '=', hex), eb('previous_hash', '=', hex)]))
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return undefined;
    const previous = row.hash !== hex;
    // the stored digest, compared with the presented one in constant time by #live (the index found it by equality)
    const stored = digestOf(previous ? row.previous_hash! : row.hash);
    const entry = { digest: stored, record: verifiedKey(toRecord(row)), until: previous ? Date.parse(row.previous_valid_until ?? '') || 0 : undefined };
    // only remembered if no newer revision was seen while this row was read (it may predate a revocation)
    if (verified.revision === revision) {
      if (verified.byDigest.size >= MAX_CACHED_KEYS) verified.byDigest.clear();
      verified.byDigest.set(hex, entry);
    }
    return this.#live(entry, digest);
  }

  /** The entry's record if the presented digest is its own, and not a previous secret past its grace. */
  #live(entry: { digest: Buffer; record: VerifiedKey; until?: number }, digest: Buffer): VerifiedKey | undefined {
    if (!crypto.timingSafeEqual(entry.digest, digest)) return undefined;
    return entry.until === undefined || this.#clock() < entry.until ? entry.record : undefined;
  }

  /** The database cannot be reached: a key verified within the cache's lifetime is accepted, a revoked one refused, any other fails with `err`. */
  #unreachable(verified: VerifiedKeys, hex: string, err: unknown): VerifiedKey | undefined {
    if (verified.revoked.has(hex)) return undefined;
    const known = verified.byDigest.get(hex);
    if (!known || this.#now() - verified.confirmedAt > this.#cacheTtlMs) throw err;
    return this.#live(known, digestOf(hex));
  }
}

/** Tell every reader of the api_keys revision that the keys changed (in the writing transaction). */
const bumpRevision = (trx: Transaction<Tables>) =>
  trx
    .updateTable('revisions')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', 'api_keys')
    .execute();

import crypto from 'node:crypto';
import { invalidParameter } from '../errors.js';
import type Database from 'better-sqlite3';
import { migrate, type Db } from '../storage/database.js';
import { digestOf, sha256Hex } from './constant-time.js';
import { DEFAULT_TIER, TIERS, isTier, type Tier } from './tiers.js';

/**
 * Personal API keys. A key is `mf_` + 32 random bytes (base64url) and is shown
 * once, at creation; the database keeps only its SHA-256.
 *
 * Verified keys are remembered by digest (never the key) so a request need not
 * query the table, but only while nothing could have changed it: every verify
 * asks SQLite's `PRAGMA data_version`, which moves whenever another connection (the
 * keys CLI in another process) commits, and writes through any KeyStore on this
 * connection clear the cache themselves. A revocation is thus effective on the very
 * next request, wherever it was made.
 */

/** A stored key as operators see it: never the key, never its hash. */
export interface KeyRecord {
  id: string;
  tier: Tier;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}

/** A freshly created key: the only time the plain key exists outside the client. */
export interface CreatedKey extends KeyRecord {
  key: string;
}

export const KEY_PREFIX = 'mf_';
export const MAX_LABEL_LENGTH = 200;

const MIGRATION = `CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  tier TEXT NOT NULL,
  label TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
)`;

interface Row {
  id: string;
  hash: string;
  tier: Tier;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, tier, label, created_at, revoked_at';

const toRecord = (row: Omit<Row, 'hash'>): KeyRecord => ({
  id: row.id,
  tier: row.tier,
  label: row.label,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

/** Live keys verified since the database last changed, by hex digest; shared by the KeyStores of one connection. */
interface VerifiedKeys {
  dataVersion: number;
  byDigest: Map<string, { digest: Buffer; record: KeyRecord }>;
}

/** Plenty for the personal keys active at once; past it the cache starts over rather than grow. */
const MAX_CACHED_KEYS = 10_000;

const verifiedKeys = new WeakMap<Db, VerifiedKeys>();

export class KeyStore {
  readonly #db: Db;
  readonly #byHash: Database.Statement<[string], Row>;
  readonly #dataVersion: Database.Statement<[], number>;
  readonly #verified: VerifiedKeys;

  constructor(db: Db) {
    migrate(db, 'auth/001-api-keys', MIGRATION);
    this.#db = db;
    this.#byHash = db.prepare<[string], Row>(`SELECT hash, ${COLUMNS} FROM api_keys WHERE hash = ?`);
    this.#dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    let verified = verifiedKeys.get(db);
    if (!verified) verifiedKeys.set(db, (verified = { dataVersion: -1, byDigest: new Map() }));
    this.#verified = verified;
  }

  /** Create a key; throws ApiError invalid_parameter for an unknown tier or an overlong label. */
  async create(options: { tier?: string; label?: string | null } = {}): Promise<CreatedKey> {
    const tier = options.tier ?? DEFAULT_TIER;
    if (!isTier(tier)) throw invalidParameter('tier', `must be one of ${TIERS.join(', ')}`);
    const label = options.label?.trim() || null;
    if (label !== null && label.length > MAX_LABEL_LENGTH) {
      throw invalidParameter('label', `must be at most ${MAX_LABEL_LENGTH} characters`);
    }
    const key = KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
    const record: KeyRecord = {
      id: 'key_' + crypto.randomBytes(6).toString('hex'),
      tier,
      label,
      createdAt: new Date().toISOString(),
      revokedAt: null,
    };
    this.#db
      .prepare('INSERT INTO api_keys (id, hash, tier, label, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(record.id, sha256Hex(key), tier, label, record.createdAt);
    return { ...record, key };
  }

  /** Every key ever created, oldest first, revoked ones included (with revokedAt). */
  async list(): Promise<KeyRecord[]> {
    const rows = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`).all() as Row[];
    return rows.map(toRecord);
  }

  /**
   * Revoke a key; revoking twice keeps the first revocation time.
   * Returns the record, or undefined when no key has this id.
   */
  async revoke(id: string): Promise<KeyRecord | undefined> {
    this.#db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), id);
    this.#verified.byDigest.clear();
    const row = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as Row | undefined;
    return row && toRecord(row);
  }

  /** The live (not revoked) key matching the presented one, or undefined. */
  async verify(presented: string): Promise<KeyRecord | undefined> {
    return this.verifyDigest(sha256Hex(presented));
  }

  /** verify() for a presented key already hashed (lower-case hex SHA-256). */
  async verifyDigest(hex: string): Promise<KeyRecord | undefined> {
    const verified = this.#verified;
    const version = this.#dataVersion.get() ?? 0;
    if (version !== verified.dataVersion) {
      verified.byDigest.clear();
      verified.dataVersion = version;
    }
    const digest = digestOf(hex);
    const known = verified.byDigest.get(hex);
    // Whether the answer came from the cache or the index, the last word is a
    // constant-time comparison of the digests: no path compares them byte by byte.
    if (known) return crypto.timingSafeEqual(known.digest, digest) ? known.record : undefined;
    const row = this.#byHash.get(hex);
    if (!row || !crypto.timingSafeEqual(digestOf(row.hash), digest)) return undefined;
    if (row.revoked_at !== null) return undefined;
    const record = Object.freeze(toRecord(row));
    if (verified.byDigest.size >= MAX_CACHED_KEYS) verified.byDigest.clear();
    verified.byDigest.set(hex, { digest, record });
    return record;
  }
}

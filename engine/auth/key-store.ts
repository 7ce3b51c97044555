import crypto from 'node:crypto';
import { invalidParameter } from '../errors.js';
import { migrate, type Db } from '../storage/database.js';
import { sha256 } from './constant-time.js';
import { DEFAULT_TIER, TIERS, isTier, type Tier } from './tiers.js';

/**
 * Personal API keys. A key is `mf_` + 32 random bytes (base64url) and is shown
 * once, at creation; the database keeps only its SHA-256. Nothing about key
 * validity is cached in memory, so a revocation by another process (the keys
 * CLI) takes effect on the very next request.
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

export class KeyStore {
  readonly #db: Db;

  constructor(db: Db) {
    migrate(db, 'auth/001-api-keys', MIGRATION);
    this.#db = db;
  }

  /** Create a key; throws ApiError invalid_parameter for an unknown tier or an overlong label. */
  create(options: { tier?: string; label?: string | null } = {}): CreatedKey {
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
      .run(record.id, sha256(key).toString('hex'), tier, label, record.createdAt);
    return { ...record, key };
  }

  /** Every key ever created, oldest first, revoked ones included (with revokedAt). */
  list(): KeyRecord[] {
    const rows = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`).all() as Row[];
    return rows.map(toRecord);
  }

  /**
   * Revoke a key; revoking twice keeps the first revocation time.
   * Returns the record, or undefined when no key has this id.
   */
  revoke(id: string): KeyRecord | undefined {
    this.#db
      .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
      .run(new Date().toISOString(), id);
    const row = this.#db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as Row | undefined;
    return row && toRecord(row);
  }

  /** The live (not revoked) key matching the presented one, or undefined. */
  verify(presented: string): KeyRecord | undefined {
    const digest = sha256(presented);
    const row = this.#db
      .prepare(`SELECT hash, ${COLUMNS} FROM api_keys WHERE hash = ?`)
      .get(digest.toString('hex')) as Row | undefined;
    // The index lookup finds the row; the final word is a constant-time comparison
    // of the digests, so no code path compares secret material byte by byte.
    if (!row || !crypto.timingSafeEqual(Buffer.from(row.hash, 'hex'), digest)) return undefined;
    if (row.revoked_at !== null) return undefined;
    return toRecord(row);
  }
}

import type { ColumnType, Generated } from 'kysely';

/**
 * The tables of Manifold's state, as the typed query builder sees them: one
 * description for SQLite and PostgreSQL (engine/platform/db/migrations.ts creates them).
 * Times are ISO-8601 text where people read them (keys, links, jobs) and epoch
 * milliseconds (bigint, read back as numbers) where the code compares them.
 */
export interface Tables {
  api_keys: ApiKeysTable;
  revisions: RevisionsTable;
  short_links: ShortLinksTable;
  tempmail_addresses: TempmailAddressesTable;
  tempmail_messages: TempmailMessagesTable;
  ai_memory: AiMemoryTable;
  media_files: MediaFilesTable;
  usage_daily: UsageDailyTable;
  daily_quota: DailyQuotaTable;
  jobs: JobsTable;
}

export interface ApiKeysTable {
  id: string;
  /** Lower-case hex SHA-256 of the key: the key itself is never stored. */
  hash: string;
  tier: string;
  label: string | null;
  created_at: string;
  revoked_at: string | null;
  /** The key's own rules (engine/platform/auth/key-rules.ts); null: the tier's budget, no expiry, every endpoint, any address. */
  rpm: number | null;
  daily: number | null;
  expires_at: string | null;
  /** JSON array of categories and endpoint path patterns. */
  allow: string | null;
  /** JSON array of addresses and CIDR blocks. */
  ips: string | null;
  note: string | null;
  /** Updated at most once a minute per key and instance, off the request's path. */
  last_used_at: string | null;
  /** A rotated key's previous secret (hex SHA-256) while its grace lasts (previous_valid_until, ISO-8601). */
  previous_hash: ColumnType<string | null, string | null | undefined, string | null>;
  previous_valid_until: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Counters bumped by writes that other processes must notice (`api_keys`: every revocation). */
export interface RevisionsTable {
  name: string;
  value: number;
}

export interface ShortLinksTable {
  code: string;
  url: string;
  clicks: ColumnType<number, number | undefined, number>;
  created_at: string;
  last_click_at: string | null;
  /** The creating key's id (a personal key's row id, or the shared test key's fixed id; never the key); null for links made before owners were kept. */
  owner_key_id: string | null;
}

export interface TempmailAddressesTable {
  address: string;
  created_at: string;
  expires_at: number;
  /** The creating key's id, as for short links; null for addresses made before owners were kept. */
  owner_key_id: string | null;
  /** Lower-case hex SHA-256 of the token handed out with the address (the token itself is never stored). */
  token_hash: string | null;
}

export interface TempmailMessagesTable {
  /** Arrival order (messages of the same millisecond included). */
  seq: Generated<number>;
  id: string;
  address: string;
  sender: string;
  recipient: string;
  subject: string;
  date: string;
  text: string;
  html: string | null;
  /** JSON array of StoredAttachment. */
  attachments: string;
  size: number;
  received_at: number;
}

export interface AiMemoryTable {
  id: Generated<number>;
  key_id: string;
  scope: string;
  session: string;
  role: 'user' | 'assistant';
  content: string;
  created_at: number;
}

export interface MediaFilesTable {
  key: string;
  name: string;
  size: number;
  created_at: number;
  expires_at: number;
  /** JSON object saved with the file. */
  meta: string;
}

/** Requests per key, endpoint and UTC day (`YYYY-MM-DD`); totals are sums over days. */
export interface UsageDailyTable {
  key_id: string;
  endpoint: string;
  day: string;
  count: number;
  /** Answers by status class, body bytes and AI tokens (migration 0007-usage-figures; 0 in rows written before). */
  requests_2xx: number;
  requests_3xx: number;
  requests_4xx: number;
  requests_5xx: number;
  bytes_out: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Milliseconds of media downloaded or converted, as yt-dlp and ffmpeg report them (migration 0009-usage-media-seconds). */
  media_ms: number;
}

/** Requests per key and UTC day of keys whose tier has a daily quota: one atomic upsert per request. */
export interface DailyQuotaTable {
  key_id: string;
  day: string;
  count: number;
}

/** Records of async jobs (the queue itself lives in Redis). */
export interface JobsTable {
  id: string;
  key_id: string;
  endpoint: string;
  /** `cancelled` since migration 0008-jobs-cancelled. */
  status: 'queued' | 'active' | 'completed' | 'failed' | 'cancelled';
  progress: ColumnType<number, number | undefined, number>;
  /** What the job is doing now (`downloading`, `converting`…), as its handler reports it. */
  stage: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON object: the validated parameters. */
  params: string;
  /** JSON: what the synchronous call would put in `result`. */
  result: string | null;
  /** JSON `{error, message}`. */
  error: string | null;
  callback_url: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

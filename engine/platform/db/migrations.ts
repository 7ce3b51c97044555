import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';

/**
 * The one set of migrations, for SQLite and PostgreSQL alike, applied by Kysely's
 * Migrator (engine/platform/db/migrate.ts). Names sort in the order they apply; never edit
 * an applied migration, add the next name. The only dialect differences are the
 * auto-increment column and the SQLite upgrade from the hand-made migrations that
 * came before this layer (a `migrations` table of `<module>/<nnn>` names).
 */
export type Dialect = 'sqlite' | 'postgres';

const MIGRATIONS: Record<string, (db: Kysely<any>, dialect: Dialect) => Promise<void>> = {
  '0001-state': (db, dialect) => initialState(db, dialect),
  '0002-jobs-stage': (db) => db.schema.alterTable('jobs').addColumn('stage', 'text').execute(),
  '0003-daily-quota': (db) => dailyQuota(db),
  '0004-owners': (db) => owners(db),
  '0005-key-rules': (db) => keyRules(db),
  '0006-key-rotation': (db) => keyRotation(db),
  '0007-usage-figures': (db) => usageFigures(db),
  '0008-jobs-cancelled': (db, dialect) => jobsCancelled(db, dialect),
  '0009-usage-media-seconds': (db) => usageMediaSeconds(db),
};

/** Every migration's name: a database that has applied them all needs no lock at boot. */
export const MIGRATION_NAMES = Object.keys(MIGRATIONS);

export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, up]) => [name, { up: (db: Kysely<any>) => up(db, dialect) }]),
  );
  return { getMigrations: async () => migrations };
}

async function initialState(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const legacy = dialect === 'sqlite' && (await tableExists(db, 'migrations'));
  if (legacy) await upgradeLegacySqlite(db);
  const serial = (table: ReturnType<Kysely<any>['schema']['createTable']>, name: string) =>
    dialect === 'postgres'
      ? table.addColumn(name, 'bigint', (c) => c.generatedByDefaultAsIdentity().primaryKey())
      : table.addColumn(name, 'integer', (c) => c.primaryKey().autoIncrement());

  await db.schema
    .createTable('api_keys')
    .ifNotExists()
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('hash', 'text', (c) => c.notNull().unique())
    .addColumn('tier', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema
    .createTable('revisions')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute();
  await db.insertInto('revisions').values({ name: 'api_keys', value: 0 }).execute();

  await db.schema
    .createTable('short_links')
    .ifNotExists()
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('clicks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_click_at', 'text')
    .execute();
  await db.schema.createIndex('short_links_url').ifNotExists().on('short_links').column('url').execute();

  await db.schema
    .createTable('tempmail_addresses')
    .ifNotExists()
    .addColumn('address', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tempmail_addresses_expiry').ifNotExists().on('tempmail_addresses').column('expires_at').execute();
  await serial(db.schema.createTable('tempmail_messages'), 'seq')
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('address', 'text', (c) => c.notNull().references('tempmail_addresses.address').onDelete('cascade'))
    .addColumn('sender', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('attachments', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tempmail_messages_address').on('tempmail_messages').columns(['address', 'seq']).execute();

  await serial(db.schema.createTable('ai_memory').ifNotExists(), 'id')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('user', 'assistant')`))
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ai_memory_session').ifNotExists().on('ai_memory').columns(['key_id', 'scope', 'session', 'id']).execute();
  await db.schema.createIndex('ai_memory_created').ifNotExists().on('ai_memory').column('created_at').execute();

  await db.schema
    .createTable('media_files')
    .ifNotExists()
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('media_files_expiry').ifNotExists().on('media_files').column('expires_at').execute();
  await db.schema.createIndex('media_files_name').ifNotExists().on('media_files').column('name').execute();

  await db.schema
    .createTable('usage_daily')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_pk', ['key_id', 'day', 'endpoint'])
    .execute();
  await db.schema.createIndex('usage_daily_day').on('usage_daily').columns(['day', 'key_id']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('queued', 'active', 'completed', 'failed')`))
    .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('result', 'text')
    .addColumn('error', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_key').on('jobs').columns(['key_id', 'created_at']).execute();
  await db.schema.createIndex('jobs_status').on('jobs').columns(['status', 'created_at']).execute();

  if (legacy) {
    // messages kept by the old schema, in their arrival order (rowid broke ties there)
    await sql`INSERT INTO tempmail_messages (id, address, sender, recipient, subject, date, text, html, attachments, size, received_at)
      SELECT id, address, sender, recipient, subject, date, text, html, attachments, size, received_at
      FROM tempmail_messages_legacy ORDER BY received_at, rowid`.execute(db);
    await sql`DROP TABLE tempmail_messages_legacy`.execute(db);
    await sql`DROP TABLE migrations`.execute(db);
  }
}

/**
 * Requests per key and UTC day of the keys whose tier has a daily quota, counted
 * exactly: each request is one atomic check-and-increment (engine/platform/limits/daily-quota.ts),
 * unlike usage_daily's batched counts per endpoint.
 */
async function dailyQuota(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('daily_quota')
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('daily_quota_pk', ['key_id', 'day'])
    .execute();
}

/**
 * Whose temp-mail addresses and short links: the creating key's id, and for an address the
 * SHA-256 of the token handed out with it (the shared test key's users tell theirs apart by
 * it). Rows made before have no owner and answer to no key: such an address expires within
 * its TEMPMAIL_TTL_SECONDS; such a link keeps redirecting, only its stats are closed.
 */
async function owners(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tempmail_addresses').addColumn('owner_key_id', 'text').execute();
  await db.schema.alterTable('tempmail_addresses').addColumn('token_hash', 'text').execute();
  await db.schema.alterTable('short_links').addColumn('owner_key_id', 'text').execute();
}

/**
 * Keys with their own rules (issue #20): per-key budgets, expiry, allowed endpoints and
 * addresses (JSON arrays), an owner's note and the last use. Keys made before have none
 * of them (null): their tier's budgets, no expiry, every endpoint, any address.
 */
async function keyRules(db: Kysely<any>): Promise<void> {
  for (const [name, type] of [
    ['rpm', 'integer'],
    ['daily', 'bigint'],
    ['expires_at', 'text'],
    ['allow', 'text'],
    ['ips', 'text'],
    ['note', 'text'],
    ['last_used_at', 'text'],
  ] as const)
    await db.schema.alterTable('api_keys').addColumn(name, type).execute();
}

/**
 * Rotation: a key's previous secret, still accepted until previous_valid_until; indexed,
 * since a presented key is looked up by either digest.
 */
async function keyRotation(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('previous_hash', 'text').execute();
  await db.schema.alterTable('api_keys').addColumn('previous_valid_until', 'text').execute();
  await db.schema.createIndex('api_keys_previous_hash').on('api_keys').column('previous_hash').execute();
}

/**
 * Usage worth billing on (issue #20): beside the requests counted at admission, the
 * answers by status class, response body bytes and the AI tokens the provider reported,
 * per key, endpoint and day. Rows written before have 0 of each: nothing was measured then.
 */
async function usageFigures(db: Kysely<any>): Promise<void> {
  for (const name of ['requests_2xx', 'requests_3xx', 'requests_4xx', 'requests_5xx', 'bytes_out', 'prompt_tokens', 'completion_tokens'])
    await db.schema
      .alterTable('usage_daily')
      .addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
}

/** The check on a job's status as migration 0001 wrote it, and as 0008 rewrites it with `cancelled`. */
const JOB_STATUS_CHECK_0001 = "check (status IN ('queued', 'active', 'completed', 'failed'))";
const JOB_STATUS_CHECK_0008 = "check (status IN ('queued', 'active', 'completed', 'failed', 'cancelled'))";

/**
 * Jobs can be cancelled (issue #20): `cancelled` joins the statuses the check constraint
 * allows. PostgreSQL swaps the constraint (named by its default, `<table>_<column>_check`).
 * SQLite cannot alter a constraint: the table is rebuilt as its documented procedure says
 * (a new table, the rows copied, the old one dropped, the new one renamed, the indexes made
 * again), inside the migration's transaction, from the table's own stored definition with
 * the check swapped, so no column is listed a second time here.
 */
async function jobsCancelled(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE jobs DROP CONSTRAINT jobs_status_check`.execute(db);
    await sql`ALTER TABLE jobs ADD CONSTRAINT jobs_status_check ${sql.raw(JOB_STATUS_CHECK_0008)}`.execute(db);
    return;
  }
  const stored = (await sql<{ type: string; sql: string | null }>`SELECT type, sql FROM sqlite_master WHERE tbl_name = 'jobs'`.execute(db)).rows;
  const table = stored.find((r) => r.type === 'table')?.sql ?? '';
  if (!table.startsWith('CREATE TABLE "jobs"') || !table.includes(JOB_STATUS_CHECK_0001))
    throw new Error(`The jobs table is not as migration 0001 made it, so 0008 cannot add the cancelled status: ${table}`);
  await sql.raw(table.replace('CREATE TABLE "jobs"', 'CREATE TABLE "jobs_cancellable"').replace(JOB_STATUS_CHECK_0001, JOB_STATUS_CHECK_0008)).execute(db);
  await sql`INSERT INTO jobs_cancellable SELECT * FROM jobs`.execute(db);
  await db.schema.dropTable('jobs').execute();
  await db.schema.alterTable('jobs_cancellable').renameTo('jobs').execute();
  for (const index of stored.filter((r) => r.type === 'index' && r.sql)) await sql.raw(index.sql!).execute(db);
}

/**
 * Media seconds processed (issue #20): the duration of the media each download or
 * conversion went through, as yt-dlp and ffmpeg report it, per key, endpoint and day.
 * Stored in milliseconds (a whole number, summed exactly); reports show seconds.
 */
async function usageMediaSeconds(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('usage_daily')
    .addColumn('media_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

/**
 * A database made before this layer keeps its keys, links, mail, memory and media
 * index: the one table whose shape changed (temp-mail messages gained `seq`) is set
 * aside and copied back after the new one exists; the per-key memory column is
 * added if that old migration never ran.
 */
async function upgradeLegacySqlite(db: Kysely<any>): Promise<void> {
  const applied = new Set((await sql<{ name: string }>`SELECT name FROM migrations`.execute(db)).rows.map((r) => r.name));
  if (applied.has('ai/001-memory') && !applied.has('ai/002-memory-per-key')) {
    await sql`ALTER TABLE ai_memory ADD COLUMN key_id TEXT NOT NULL DEFAULT ''`.execute(db);
    await sql`DROP INDEX ai_memory_session`.execute(db);
  }
  if (await tableExists(db, 'tempmail_messages')) {
    await sql`ALTER TABLE tempmail_messages RENAME TO tempmail_messages_legacy`.execute(db);
    await sql`DROP INDEX IF EXISTS tempmail_messages_address`.execute(db);
  } else {
    await sql`CREATE TABLE tempmail_messages_legacy (id TEXT, address TEXT, sender TEXT, recipient TEXT, subject TEXT, date TEXT, text TEXT, html TEXT, attachments TEXT, size INTEGER, received_at INTEGER)`.execute(
      db,
    );
  }
}

async function tableExists(db: Kysely<any>, name: string): Promise<boolean> {
  const tables = await db.introspection.getTables();
  return tables.some((t) => t.name === name);
}

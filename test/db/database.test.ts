import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { sql } from 'kysely';
import { loadConfig } from '../../engine/platform/config.js';
import { closeDatabase, database, openDatabase, readyDatabase } from '../../engine/platform/db/database.js';
import { Sqlite } from '../../engine/platform/db/sqlite-driver.js';
import { MIGRATION_NAMES } from '../../engine/platform/db/migrations.js';
import { testDialects } from '../support/dialects.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dialects = await testDialects(t);

/** Start the migrate child on `where`; resolves to its exit code and output. */
function migrateInChild(where: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'migrate-child.ts'), where], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise<{ code: number | null; output: string }>((resolve) => child.once('close', (code) => resolve({ code, output })));
}

t.test('sqlite: database() creates DATA_DIR, uses WAL and shares one database per configuration', async (t) => {
  const dataDir = path.join(t.testdir(), 'nested', 'data');
  const config = loadConfig({ DATA_DIR: dataDir });
  t.teardown(() => closeDatabase(config));
  const db = await readyDatabase(config);
  t.equal(db.dialect, 'sqlite');
  t.ok(fs.existsSync(path.join(dataDir, 'manifold.db')));
  t.equal(db.sqlite!.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.sqlite!.pragma('busy_timeout', { simple: true }), 5000);
  t.equal(database(loadConfig({ DATA_DIR: dataDir + '/' })), db, 'same file, same database');
  await closeDatabase(config);
  t.ok(db.closed);
  const reopened = database(config);
  t.not(reopened, db, 'a closed database is replaced on next use');
  await reopened.ready;
});

t.test('postgres: DATABASE_URL selects PostgreSQL; bigint columns read back as numbers', async (t) => {
  const url = (await dialects[1].env(t)).DATABASE_URL;
  const config = loadConfig({ DATA_DIR: t.testdir(), DATABASE_URL: url });
  t.teardown(() => closeDatabase(config));
  const db = await readyDatabase(config);
  t.equal(db.dialect, 'postgres');
  t.notOk(fs.existsSync(path.join(config.dataDir, 'manifold.db')), 'no SQLite file is made');
  await db.kysely.insertInto('media_files').values({ key: 'k', name: 'n', size: 5_000_000_000, created_at: 1, expires_at: 2, meta: '{}' }).execute();
  t.same(await db.kysely.selectFrom('media_files').select(['size', 'expires_at']).executeTakeFirst(), { size: 5_000_000_000, expires_at: 2 });
});

for (const dialect of dialects) {
  t.test(`${dialect.name}: two processes migrating one fresh database at once both succeed, and it is migrated once`, async (t) => {
    const target = await dialect.target(t);
    const where = 'url' in target ? target.url : target.file;
    const runs = await Promise.all([migrateInChild(where), migrateInChild(where)]);
    for (const run of runs) t.match(run, { code: 0, output: /migrated/ }, run.output);
    const db = openDatabase(target);
    t.teardown(() => db.close());
    await db.ready;
    const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db.kysely);
    t.same(
      applied.rows.map((r) => r.name),
      MIGRATION_NAMES,
      'each migration recorded once',
    );
    t.same(await db.kysely.selectFrom('revisions').selectAll().execute(), [{ name: 'api_keys', value: 0 }], 'its data seeded once');
  });

  t.test(`${dialect.name}: a second open of a migrated database changes nothing`, async (t) => {
    const target = await dialect.target(t);
    const first = openDatabase(target);
    await first.ready;
    await first.kysely.insertInto('short_links').values({ code: 'abc', url: 'https://example.com/', created_at: 'now' }).execute();
    await first.close();
    const second = openDatabase(target);
    t.teardown(() => second.close());
    await second.ready;
    t.equal((await second.kysely.selectFrom('short_links').select('url').executeTakeFirst())?.url, 'https://example.com/');
  });
}

t.test('postgres: an unreachable server fails ready with the reason', async (t) => {
  const db = openDatabase({ url: 'postgres://manifold@127.0.0.1:1/none' });
  t.teardown(() => db.close());
  const err = await db.ready.catch((e: Error) => e);
  t.equal((err as { code?: string }).code, 'database_unavailable', 'a 503 for the requests waiting on it');
  t.match(((err as Error).cause as Error).message, /Database migration .*failed: .*(ECONNREFUSED|connect)/, 'the reason kept as its cause');
});

t.test('postgres: a shared database whose server was down is opened afresh on next use', async (t) => {
  const url = (await dialects[1].env(t)).DATABASE_URL;
  // the same database through a port nothing listens on, then through the real one: what an instance sees when it starts before PostgreSQL
  let env: Record<string, string> = { DATA_DIR: t.testdir(), DATABASE_URL: url.replace(/:\d+\//, ':1/') };
  const config = () => loadConfig(env);
  const down = database(config());
  await t.rejects(down.ready);
  t.equal(database(config()) === down, false, 'not kept after failing');
  await closeDatabase(config());
  env = { ...env, DATABASE_URL: url };
  t.teardown(() => closeDatabase(config()));
  t.equal((await readyDatabase(config())).dialect, 'postgres', 'reachable now');
});

t.test('sqlite: a database made before this layer keeps its state', async (t) => {
  const file = path.join(t.testdir(), 'manifold.db');
  // the schema the hand-made migrations of the previous version left, with some state
  const old = new Sqlite(file);
  old.exec(`
    CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL);
    INSERT INTO migrations VALUES ('auth/001-api-keys', 'x'), ('shortener/001-short-links', 'x'),
      ('tempmail/001-addresses-messages', 'x'), ('ai/001-memory', 'x'), ('media/001-files', 'x');
    CREATE TABLE api_keys (id TEXT PRIMARY KEY, hash TEXT NOT NULL UNIQUE, tier TEXT NOT NULL, label TEXT, created_at TEXT NOT NULL, revoked_at TEXT);
    INSERT INTO api_keys VALUES ('key_1', 'abc', 'personal', 'old bot', '2026-01-01T00:00:00.000Z', NULL);
    CREATE TABLE short_links (code TEXT PRIMARY KEY, url TEXT NOT NULL, clicks INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL, last_click_at TEXT);
    CREATE INDEX short_links_url ON short_links (url);
    INSERT INTO short_links VALUES ('old', 'https://example.com/', 3, '2026-01-01', NULL);
    CREATE TABLE tempmail_addresses (address TEXT PRIMARY KEY, created_at TEXT NOT NULL, expires_at INTEGER NOT NULL);
    CREATE TABLE tempmail_messages (id TEXT PRIMARY KEY, address TEXT NOT NULL REFERENCES tempmail_addresses(address) ON DELETE CASCADE,
      sender TEXT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL, date TEXT NOT NULL, text TEXT NOT NULL, html TEXT,
      attachments TEXT NOT NULL, size INTEGER NOT NULL, received_at INTEGER NOT NULL);
    CREATE INDEX tempmail_messages_address ON tempmail_messages (address, received_at);
    INSERT INTO tempmail_addresses VALUES ('a@mail.test', 'x', 9999999999999);
    INSERT INTO tempmail_messages VALUES ('m2', 'a@mail.test', 's', 'r', 'second', 'd', 't', NULL, '[]', 1, 5);
    INSERT INTO tempmail_messages VALUES ('m1', 'a@mail.test', 's', 'r', 'first', 'd', 't', NULL, '[]', 1, 1);
    CREATE TABLE ai_memory (id INTEGER PRIMARY KEY AUTOINCREMENT, scope TEXT NOT NULL, session TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('user', 'assistant')), content TEXT NOT NULL, created_at INTEGER NOT NULL);
    CREATE INDEX ai_memory_session ON ai_memory (scope, session, id);
    CREATE INDEX ai_memory_created ON ai_memory (created_at);
    INSERT INTO ai_memory (scope, session, role, content, created_at) VALUES ('e', 's', 'user', 'before keys', 1);
    CREATE TABLE media_files (key TEXT PRIMARY KEY, name TEXT NOT NULL, size INTEGER NOT NULL, created_at INTEGER NOT NULL, expires_at INTEGER NOT NULL, meta TEXT NOT NULL);
    INSERT INTO media_files VALUES ('job', 'f.mp3', 10, 1, 2, '{}');
  `);
  old.close();

  const db = openDatabase({ file });
  t.teardown(() => db.close());
  await db.ready;
  const k = db.kysely;
  t.match(await k.selectFrom('api_keys').selectAll().execute(), [{ id: 'key_1', hash: 'abc', label: 'old bot' }], 'keys kept');
  t.match(await k.selectFrom('short_links').selectAll().execute(), [{ code: 'old', clicks: 3 }], 'short links and clicks kept');
  t.same(
    (await k.selectFrom('tempmail_messages').select(['id', 'subject']).orderBy('seq').execute()).map((m) => m.subject),
    ['first', 'second'],
    'temp mail kept, in arrival order',
  );
  t.match(
    await k.selectFrom('ai_memory').selectAll().execute(),
    [{ key_id: '', content: 'before keys' }],
    'memory from before per-key scoping belongs to no key',
  );
  t.match(await k.selectFrom('media_files').selectAll().execute(), [{ key: 'job', name: 'f.mp3' }], 'media index kept');
  const tables = (await k.introspection.getTables()).map((table) => table.name);
  t.notOk(tables.includes('migrations'), 'the old migrations table is gone');
  t.notOk(tables.includes('tempmail_messages_legacy'));
  t.ok(tables.includes('usage_daily') && tables.includes('jobs'), 'new tables made');
});

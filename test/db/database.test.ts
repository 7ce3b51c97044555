import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { sql } from 'kysely';
import { loadConfig } from '../../engine/platform/config.js';
import { openDatabase, readyDatabase, type Database } from '../../engine/platform/db/database.js';
import { EngineDatabase } from '../../engine/platform/db/engine-database.js';
import { Sqlite } from '../../engine/platform/db/sqlite-driver.js';
import { MIGRATION_NAMES } from '../../engine/platform/db/migrations.js';
import { testDialects } from '../support/dialects.js';
import { startPostgres } from '../support/postgres.js';

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

t.test("sqlite: an engine's database creates DATA_DIR, uses WAL, and is opened afresh after a close", async (t) => {
  const dataDir = path.join(t.testdir(), 'nested', 'data');
  const engineDb = new EngineDatabase(loadConfig({ DATA_DIR: dataDir }));
  t.teardown(() => engineDb.close());
  const db = await readyDatabase(engineDb);
  t.equal(db.dialect, 'sqlite');
  t.ok(fs.existsSync(path.join(dataDir, 'manifold.db')));
  t.equal(db.sqlite!.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.sqlite!.pragma('busy_timeout', { simple: true }), 5000);
  t.equal(engineDb.current(), db, 'one connection per engine, kept while open');
  t.equal(engineDb.circuit, undefined, 'SQLite has no circuit');
  await engineDb.close();
  t.ok(db.closed, "closing the engine's database closes its connection");
  const reopened = engineDb.current();
  t.not(reopened, db, 'a closed database is replaced on next use');
  await reopened.ready;
});

t.test('sqlite: two engines on one file hold a connection each, and their transactions take turns', async (t) => {
  const config = loadConfig({ DATA_DIR: t.testdir() });
  const [a, b] = [new EngineDatabase(config), new EngineDatabase(config)];
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const [dbA, dbB] = await Promise.all([readyDatabase(a), readyDatabase(b)]);
  t.not(dbA, dbB, 'not one shared database');
  t.not(dbA.sqlite, dbB.sqlite, 'two connections');
  // Each transaction reads, yields, then writes. Without the turns, the second
  // connection's BEGIN IMMEDIATE would sleep in SQLite's busy handler on this thread
  // while the first's transaction waited for it: SQLITE_BUSY after the busy timeout.
  const write = (db: Database, i: number) =>
    db.kysely.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('short_links').select('code').execute();
      await trx
        .insertInto('short_links')
        .values({ code: `c${i}`, url: `https://example.com/${before.length}`, created_at: 'now' })
        .execute();
    });
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => write(i % 2 ? dbB : dbA, i)));
  t.same(
    outcomes.filter((o) => o.status === 'rejected'),
    [],
    'every transaction committed',
  );
  const rows = await dbB.kysely.selectFrom('short_links').select('url').execute();
  t.equal(rows.length, 20);
  t.equal(new Set(rows.map((r) => r.url)).size, 20, 'each read saw every commit before it: one at a time');
  // a statement outside a transaction waits for the other connection's open transaction too
  const single = (db: Database, i: number) =>
    db.kysely
      .insertInto('short_links')
      .values({ code: `s${i}`, url: 'https://example.com/single', created_at: 'now' })
      .execute();
  const mixed = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => (i % 2 ? single(dbB, i) : write(dbA, 100 + i))));
  t.same(
    mixed.filter((o) => o.status === 'rejected'),
    [],
    "every statement beside the other's transactions ran",
  );
  await a.close();
  t.ok(dbA.closed && !dbB.closed, "closing one engine's database leaves the other's open");
  t.equal((await dbB.kysely.selectFrom('short_links').select('code').execute()).length, 40, 'and working');
});

t.test('postgres: DATABASE_URL selects PostgreSQL; bigint columns read back as numbers', async (t) => {
  const url = (await dialects[1].env(t)).DATABASE_URL;
  const config = loadConfig({ DATA_DIR: t.testdir(), DATABASE_URL: url });
  const engineDb = new EngineDatabase(config);
  t.teardown(() => engineDb.close());
  const db = await readyDatabase(engineDb);
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

t.test("postgres: an engine's database whose server was down is opened afresh on next use, keeping its circuit", async (t) => {
  // a server of its own, stopped and started: what an instance sees when it starts before PostgreSQL
  const postgres = await startPostgres(t);
  const url = await postgres.newDatabase();
  const engineDb = new EngineDatabase(loadConfig({ DATA_DIR: t.testdir(), DATABASE_URL: url }));
  t.teardown(() => engineDb.close());
  t.equal(engineDb.circuit, undefined, 'no circuit before first use');
  await postgres.stop();
  const down = engineDb.current();
  await t.rejects(down.ready, { code: 'database_unavailable' });
  t.ok(engineDb.circuit !== undefined, 'its circuit exists once used');
  const again = engineDb.current();
  t.not(again, down, 'not kept after failing');
  await t.rejects(again.ready);
  // refused at once: the third failure in a row opens the circuit, counted across the reopens
  await t.rejects(engineDb.current().ready);
  t.equal(engineDb.circuit, 'open', 'one circuit across reopens: three refused opens opened it');
  await postgres.start();
  // the open circuit refuses at once until its cool-down has passed and a call (the probe) gets through
  let up: Database | Error;
  while ((up = await readyDatabase(engineDb).catch((err: Error) => err)) instanceof Error) await new Promise((resolve) => setTimeout(resolve, 100));
  t.equal(up.dialect, 'postgres', 'reachable now');
  t.equal(engineDb.circuit, 'closed', 'and its circuit closed by that success');
  const other = new EngineDatabase(loadConfig({ DATA_DIR: t.testdir(), DATABASE_URL: url }));
  t.teardown(() => other.close());
  await readyDatabase(other);
  t.not(other.current(), engineDb.current(), 'another engine on the same server has a pool of its own');
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

import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { closeDatabase, databasePath, migrate, openDatabase } from '../../engine/storage/database.js';

t.test('openDatabase creates DATA_DIR, uses WAL and shares one connection per path', async (t) => {
  const dataDir = path.join(t.testdir(), 'nested', 'data');
  t.teardown(() => closeDatabase(dataDir));
  const db = openDatabase(dataDir);
  t.ok(fs.existsSync(path.join(dataDir, 'manifold.db')));
  t.equal(databasePath(dataDir), path.join(dataDir, 'manifold.db'));
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('busy_timeout', { simple: true }), 5000);
  t.equal(openDatabase(dataDir + '/'), db, 'same file, same connection');
  closeDatabase(dataDir);
  t.notOk(db.open);
  const reopened = openDatabase(dataDir);
  t.not(reopened, db, 'a closed connection is replaced');
});

t.test('migrate applies each named migration once', async (t) => {
  const dataDir = t.testdir();
  t.teardown(() => closeDatabase(dataDir));
  const db = openDatabase(dataDir);
  t.equal(migrate(db, 'test/001-things', 'CREATE TABLE things (id INTEGER PRIMARY KEY)'), true);
  t.equal(migrate(db, 'test/001-things', 'CREATE TABLE things (id INTEGER PRIMARY KEY)'), false, 'not re-run');
  t.equal(migrate(db, 'test/002-more', 'ALTER TABLE things ADD COLUMN name TEXT'), true);
  db.prepare('INSERT INTO things (name) VALUES (?)').run('x');
  t.same(
    (db.prepare('SELECT name FROM migrations ORDER BY name').all() as { name: string }[]).map((r) => r.name),
    ['test/001-things', 'test/002-more'],
  );
  t.throws(() => migrate(db, 'test/003-broken', 'CREATE TABLE things (id INTEGER)'), /already exists/);
  t.notOk(db.prepare('SELECT 1 FROM migrations WHERE name = ?').get('test/003-broken'), 'a failed migration is not recorded');
});

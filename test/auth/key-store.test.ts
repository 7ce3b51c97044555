import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { testDialects } from '../support/dialects.js';
import { timingSafeEqualSpy } from './crypto-spy.js';
import type { TestLike } from './koa-harness.js';

const dialects = await testDialects(t);

for (const dialect of dialects) {
  const freshStore = async (t: TestLike) => {
    const db = await dialect.open(t);
    return { db, store: new KeyStore(db) };
  };

  t.test(`${dialect.name}: create returns an mf_ key of 32 random bytes, once, and verify finds it`, async (t) => {
    const { store } = await freshStore(t);
    const created = await store.create({ tier: 'personal', label: '  my bot ' });
    t.match(created.key, /^mf_[A-Za-z0-9_-]{43}$/);
    t.equal(Buffer.from(created.key.slice(3), 'base64url').length, 32);
    t.match(created, { tier: 'personal', label: 'my bot', revokedAt: null });
    t.match(created.id, /^key_[0-9a-f]{12}$/);
    t.ok(Date.parse(created.createdAt));
    t.match(await store.verify(created.key), {
      id: created.id,
      tier: 'personal',
      label: 'my bot',
      createdAt: created.createdAt,
      revokedAt: null,
      rpm: null,
      allow: null,
    });
    t.equal(await store.verify(created.key + 'x'), undefined);
    t.equal(await store.verify(''), undefined);
    t.not((await store.create()).key, created.key, 'every key is new');
    t.equal((await store.create()).tier, 'personal', 'personal is the default tier');
    t.equal((await store.create({ tier: 'test' })).tier, 'test');
  });

  t.test(`${dialect.name}: create rejects unknown tiers and overlong labels`, async (t) => {
    const { store } = await freshStore(t);
    await t.rejects(store.create({ tier: 'gold' }), { status: 400, code: 'invalid_parameter', message: /tier: must be one of test, personal/ });
    await t.rejects(store.create({ label: 'x'.repeat(201) }), { code: 'invalid_parameter', details: [{ param: 'label' }] });
    t.same(await store.list(), [], 'nothing was stored');
  });

  t.test(`${dialect.name}: only the SHA-256 hash is stored`, async (t) => {
    const { db, store } = await freshStore(t);
    const created = await store.create({ label: 'secret-check' });
    const hash = crypto.createHash('sha256').update(created.key).digest('hex');
    const rows = JSON.stringify(await db.kysely.selectFrom('api_keys').selectAll().execute());
    t.ok(rows.includes(hash), 'the hash is stored');
    t.notOk(rows.includes(created.key.slice(3)), 'neither the key nor its random part');
    for (const record of await store.list()) {
      t.notOk('hash' in record || 'key' in record, 'list shows neither hash nor key');
    }
  });

  t.test(`${dialect.name}: list and revoke`, async (t) => {
    const { store } = await freshStore(t);
    const a = await store.create({ label: 'a' });
    const b = await store.create({ tier: 'test' });
    t.same((await store.list()).map((r) => r.id).sort(), [a.id, b.id].sort());
    const revoked = await store.revoke(a.id);
    t.ok(revoked?.revokedAt);
    t.equal(await store.verify(a.key), undefined, 'revoked key no longer verifies');
    t.equal((await store.verify(b.key))?.id, b.id, 'other keys unaffected');
    t.equal((await store.revoke(a.id))?.revokedAt, revoked?.revokedAt, 'revoking twice keeps the first time');
    t.equal(await store.revoke('key_unknown'), undefined);
    t.equal((await store.list()).find((r) => r.id === a.id)?.revokedAt, revoked?.revokedAt);
  });

  t.test(`${dialect.name}: revocation through another connection (another process) is effective on the next verify`, async (t) => {
    const target = await dialect.target(t);
    const mine = openDatabase(target);
    const other = openDatabase(target); // what the keys CLI, or another instance, has
    t.teardown(async () => {
      await mine.close();
      await other.close();
    });
    const store = new KeyStore(mine);
    const otherStore = new KeyStore(other);
    const created = await store.create();
    t.equal((await otherStore.verify(created.key))?.id, created.id, 'visible to the other connection');
    t.equal((await store.verify(created.key))?.id, created.id, 'verified');
    t.equal((await store.verify(created.key))?.id, created.id, 'verified again (from memory)');
    await otherStore.revoke(created.id);
    t.equal(await store.verify(created.key), undefined, 'next verify sees the revocation');
    const concurrent = await Promise.all(Array.from({ length: 20 }, () => store.verify(created.key)));
    t.same(concurrent, Array(20).fill(undefined), 'and so do concurrent ones');
  });

  t.test(`${dialect.name}: verify compares digests with crypto.timingSafeEqual`, async (t) => {
    const spy = timingSafeEqualSpy();
    const { KeyStore: SpiedStore } = await t.mockImport<typeof import('../../engine/platform/auth/key-store.js')>(
      '../../engine/platform/auth/key-store.js',
      spy.mocks,
    );
    const store = new SpiedStore(await dialect.open(t));
    const created = await store.create();
    t.ok(await store.verify(created.key));
    t.equal(spy.calls.length, 1);
    const [stored, presented] = spy.calls[0];
    t.equal(stored.length, 32, 'full SHA-256 digests are compared');
    t.same(presented, crypto.createHash('sha256').update(created.key).digest());
    await store.verify(created.key);
    t.equal(spy.calls.length, 2, 'a remembered key is compared again, in constant time');
    t.same(spy.calls[1][1], crypto.createHash('sha256').update(created.key).digest());
  });

  t.test(`${dialect.name}: a verified key is remembered only until the keys change, from any store on the database`, async (t) => {
    const { db, store } = await freshStore(t);
    const sameDatabase = new KeyStore(db); // e.g. the admin routes' store
    const created = await store.create();
    t.equal((await store.verify(created.key))?.id, created.id);
    t.equal((await store.verify(created.key))?.id, created.id, 'again, from memory');
    await sameDatabase.revoke(created.id);
    t.equal(await store.verify(created.key), undefined, 'a revocation by another store on this database is seen at once');
  });
}

t.test('sqlite: the key is in no database file, only its hash', async (t) => {
  const dir = t.testdir();
  const db = openDatabase({ file: path.join(dir, 'manifold.db') });
  t.teardown(() => db.close());
  const created = await new KeyStore(db).create({ label: 'secret-check' });
  const bytes = Buffer.concat(fs.readdirSync(dir).map((name) => fs.readFileSync(path.join(dir, name)))); // db, -wal and -shm
  t.ok(bytes.includes(crypto.createHash('sha256').update(created.key).digest('hex')), 'the hash is in the files read');
  t.notOk(bytes.includes(created.key.slice(3)), 'the key is not');
});

t.test('postgres: a remembered key costs one revision read, shared by concurrent requests', async (t) => {
  const db = await dialects[1].open(t);
  const store = new KeyStore(db);
  const created = await store.create();
  await store.verify(created.key);
  const queries: string[] = [];
  const execute = db.kysely.getExecutor().executeQuery.bind(db.kysely.getExecutor());
  t.teardown(() => void ((db.kysely.getExecutor() as { executeQuery: unknown }).executeQuery = execute));
  (db.kysely.getExecutor() as { executeQuery: unknown }).executeQuery = (query: { sql: string }, ...rest: unknown[]) => {
    queries.push(query.sql);
    return (execute as (...args: unknown[]) => unknown)(query, ...rest);
  };
  const answers = await Promise.all(Array.from({ length: 50 }, () => store.verify(created.key)));
  t.ok(answers.every((a) => a?.id === created.id));
  t.ok(queries.length <= 2, `50 concurrent verifies read the revision ${queries.length} time(s)`);
  t.ok(
    queries.every((q) => /"revisions"/.test(q)),
    'and never the keys table',
  );
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { KeyStore } from '../../engine/auth/key-store.js';
import { closeDatabase, connect, databasePath, openDatabase } from '../../engine/storage/database.js';
import { timingSafeEqualSpy } from './crypto-spy.js';
import type { TestLike } from './koa-harness.js';

function freshStore(t: TestLike) {
  const dataDir = t.testdir();
  t.teardown(() => closeDatabase(dataDir));
  return { dataDir, store: new KeyStore(openDatabase(dataDir)) };
}

t.test('create returns an mf_ key of 32 random bytes, once, and verify finds it', async (t) => {
  const { store } = freshStore(t);
  const created = await store.create({ tier: 'personal', label: '  my bot ' });
  t.match(created.key, /^mf_[A-Za-z0-9_-]{43}$/);
  t.equal(Buffer.from(created.key.slice(3), 'base64url').length, 32);
  t.match(created, { tier: 'personal', label: 'my bot', revokedAt: null });
  t.match(created.id, /^key_[0-9a-f]{12}$/);
  t.ok(Date.parse(created.createdAt));
  t.same(await store.verify(created.key), { id: created.id, tier: 'personal', label: 'my bot', createdAt: created.createdAt, revokedAt: null });
  t.equal(await store.verify(created.key + 'x'), undefined);
  t.equal(await store.verify(''), undefined);
  t.not((await store.create()).key, created.key, 'every key is new');
  t.equal((await store.create()).tier, 'personal', 'personal is the default tier');
  t.equal((await store.create({ tier: 'test' })).tier, 'test');
});

t.test('create rejects unknown tiers and overlong labels', async (t) => {
  const { store } = freshStore(t);
  await t.rejects(store.create({ tier: 'gold' }), { status: 400, code: 'invalid_parameter', message: /tier: must be one of test, personal/ });
  await t.rejects(store.create({ label: 'x'.repeat(201) }), { code: 'invalid_parameter', details: [{ param: 'label' }] });
  t.same(await store.list(), [], 'nothing was stored');
});

t.test('only SHA-256 hashes reach the database files', async (t) => {
  const { dataDir, store } = freshStore(t);
  const created = await store.create({ label: 'secret-check' });
  const bytes = Buffer.concat(
    fs.readdirSync(dataDir).map((name) => fs.readFileSync(path.join(dataDir, name))), // db, -wal and -shm
  );
  const hash = crypto.createHash('sha256').update(created.key).digest('hex');
  t.ok(bytes.includes(hash), 'the hash is stored (so the search below reads the right files)');
  t.notOk(bytes.includes(created.key), 'the plain key is not');
  t.notOk(bytes.includes(created.key.slice(3)), 'nor its random part');
  for (const record of await store.list()) {
    t.notOk('hash' in record || 'key' in record, 'list shows neither hash nor key');
  }
});

t.test('list and revoke', async (t) => {
  const { store } = freshStore(t);
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

t.test('revocation through another connection is effective at once', async (t) => {
  const { dataDir, store } = freshStore(t);
  const other = connect(databasePath(dataDir)); // what the keys CLI, another process, has
  t.teardown(() => other.close());
  const otherStore = new KeyStore(other);
  const created = await store.create();
  t.equal((await otherStore.verify(created.key))?.id, created.id, 'visible to the other connection');
  t.equal((await store.verify(created.key))?.id, created.id, 'verified (a cache would keep it valid)');
  await otherStore.revoke(created.id);
  t.equal(await store.verify(created.key), undefined, 'next verify sees the revocation');
});

t.test('verify compares digests with crypto.timingSafeEqual', async (t) => {
  const spy = timingSafeEqualSpy();
  const { KeyStore: SpiedStore } = await t.mockImport<typeof import('../../engine/auth/key-store.js')>(
    '../../engine/auth/key-store.js',
    spy.mocks,
  );
  const dataDir = t.testdir();
  t.teardown(() => closeDatabase(dataDir));
  const store = new SpiedStore(openDatabase(dataDir));
  const created = await store.create();
  t.ok(await store.verify(created.key));
  t.equal(spy.calls.length, 1);
  const [stored, presented] = spy.calls[0];
  t.equal(stored.length, 32, 'full SHA-256 digests are compared');
  t.same(presented, crypto.createHash('sha256').update(created.key).digest());
});

t.test('a verified key is remembered only until the keys change, from any store on the connection', async (t) => {
  const { dataDir, store } = freshStore(t);
  const sameConnection = new KeyStore(openDatabase(dataDir)); // e.g. the admin routes' store
  const created = await store.create();
  t.equal((await store.verify(created.key))?.id, created.id);
  t.equal((await store.verify(created.key))?.id, created.id, 'again, from memory');
  await sameConnection.revoke(created.id);
  t.equal(await store.verify(created.key), undefined, 'a revocation by another store on this connection is seen at once');
});

t.test('remembered keys are still compared in constant time', async (t) => {
  const spy = timingSafeEqualSpy();
  const { KeyStore: SpiedStore } = await t.mockImport<typeof import('../../engine/auth/key-store.js')>('../../engine/auth/key-store.js', spy.mocks);
  const dataDir = t.testdir();
  t.teardown(() => closeDatabase(dataDir));
  const store = new SpiedStore(openDatabase(dataDir));
  const created = await store.create();
  await store.verify(created.key);
  await store.verify(created.key);
  t.equal(spy.calls.length, 2, 'one comparison per verify, from the index or from memory');
  t.same(spy.calls[1][1], crypto.createHash('sha256').update(created.key).digest());
});

/**
 * What the key check costs on the request path, per dialect: a remembered key
 * (the cache hit every request after the first takes), an unknown key (always the
 * table), and a remembered key under 50 concurrent requests (PostgreSQL shares one
 * revision read among them). Run: node --import tsx bench/db/key-verify.ts
 * (starts its own PostgreSQL, as the tests do; needs `postgresql` installed).
 */
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import type { Database } from '../../engine/platform/db/database.js';
import { measure, onEachDialect } from './measure.js';

async function bench(name: string, db: Database): Promise<void> {
  await db.ready;
  const store = new KeyStore(db);
  const { key } = await store.create();
  await measure(`${name}: remembered key, one at a time`, 20_000, () => store.verify(key));
  await measure(`${name}: unknown key, one at a time`, 5_000, () => store.verify('mf_unknown'));
  await measure(`${name}: remembered key, a batch of 50 concurrent`, 400, async () => {
    await Promise.all(Array.from({ length: 50 }, () => store.verify(key)));
  });
  await db.close();
}

await onEachDialect(bench);

/**
 * What the key check costs on the request path, per dialect: a remembered key
 * (the cache hit every request after the first takes), an unknown key (always the
 * table), and a remembered key under 50 concurrent requests (PostgreSQL shares one
 * revision read among them). Run: node --import tsx bench/db/key-verify.ts
 * (starts its own PostgreSQL, as the tests do; needs `postgresql` installed).
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { KeyStore } from '../../engine/auth/key-store.js';
import { openDatabase, type Database } from '../../engine/db/database.js';
import { startPostgres } from '../../test/support/postgres.js';
import { benchLifecycle, measure } from './measure.js';

const lifecycle = benchLifecycle();

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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bench-db-'));
try {
  await bench('sqlite', openDatabase({ file: path.join(dir, 'manifold.db') }));
  const postgres = await startPostgres(lifecycle);
  await bench('postgres', openDatabase({ url: await postgres.newDatabase() }));
} finally {
  await lifecycle.end();
  fs.rmSync(dir, { recursive: true, force: true });
}

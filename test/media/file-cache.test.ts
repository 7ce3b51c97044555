import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { MediaFileCache } from '../../engine/features/media/file-cache.js';
import { createLocalFileStore } from '../../engine/platform/storage/local-files.js';
import { testDialects, type TestDialect } from '../support/dialects.js';
import { tempDataDir } from '../support/serve.js';

/** The index on each dialect: its queries (the quota's sum over distinct files above all) differ between them. */
const dialects = await testDialects(t);
type Tap = Parameters<TestDialect['open']>[0];

async function setup(t: Tap, dialect: TestDialect, quota = 1_000_000) {
  const dataDir = tempDataDir('manifold-media-cache-');
  const files = createLocalFileStore(dataDir, 'https://m.test');
  let now = 1_000_000;
  const db = await dialect.open(t);
  const cache = new MediaFileCache(db, files, 60, quota, 'https://m.test/files', () => now);
  const temp = (content: string) => {
    const file = path.join(files.tempDir, `t-${Math.random()}`);
    fs.writeFileSync(file, content);
    return file;
  };
  t.teardown(async () => {
    cache.stopJanitor();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return { cache, files, temp, advance: (ms: number) => (now += ms) };
}

for (const dialect of dialects) {
  t.test(`${dialect.name}: a stored file is found by key until its TTL, then the janitor removes it`, async (t) => {
    const { cache, files, temp, advance } = await setup(t, dialect);
    const stored = await cache.store('k1', temp('hello'), 'mp3', { title: 'x' });
    t.match(stored.url, /^https:\/\/m\.test\/files\/[a-f0-9]{64}\.mp3$/);
    t.equal(stored.size, 5);
    t.same((await cache.lookup('k1'))?.meta, { title: 'x' });
    advance(59_000);
    t.ok(await cache.lookup('k1'), 'still there before the TTL');
    advance(2_000);
    t.equal(await cache.lookup('k1'), undefined, 'expired entries are not served');
    t.ok(await files.open(stored.name), 'the file waits for the janitor');
    t.equal(await cache.sweep(), 1, 'the janitor deletes it');
    t.equal(await files.open(stored.name), undefined);
  });

  t.test(`${dialect.name}: the disk quota drops the oldest files first`, async (t) => {
    const { cache, files, temp, advance } = await setup(t, dialect, 25);
    const a = await cache.store('a', temp('a'.repeat(10)), 'mp3', {});
    advance(1);
    const b = await cache.store('b', temp('b'.repeat(10)), 'mp3', {});
    advance(1);
    const c = await cache.store('c', temp('c'.repeat(10)), 'mp3', {});
    t.equal(await files.open(a.name), undefined, 'the oldest went');
    t.ok((await files.open(b.name)) && (await files.open(c.name)), 'the newer two stay (20 of 25 bytes)');
    t.equal(await cache.lookup('a'), undefined);
  });

  t.test(`${dialect.name}: a file shared by two keys (same bytes) stays until the last key goes`, async (t) => {
    const { cache, files, temp, advance } = await setup(t, dialect);
    const one = await cache.store('one', temp('same bytes'), 'mp3', {});
    advance(30_000);
    const two = await cache.store('two', temp('same bytes'), 'mp3', {});
    t.equal(one.name, two.name, 'content-addressed');
    advance(31_000);
    await cache.sweep();
    t.ok(await files.open(one.name), 'still used by "two"');
    advance(30_000);
    await cache.sweep();
    t.equal(await files.open(one.name), undefined, 'gone with the last key');
  });

  t.test(`${dialect.name}: obtain: concurrent callers share one production; later ones reuse the file`, async (t) => {
    const { cache, temp } = await setup(t, dialect);
    let runs = 0;
    const make = async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 20));
      return cache.store('job', temp('made'), 'mp4', { n: runs });
    };
    const [x, y] = await Promise.all([cache.obtain('job', make), cache.obtain('job', make)]);
    const z = await cache.obtain('job', make);
    t.equal(runs, 1);
    t.equal(x.url, y.url);
    t.equal(z.url, x.url);
  });

  t.test(`${dialect.name}: a failed production is not cached`, async (t) => {
    const { cache, temp } = await setup(t, dialect);
    await t.rejects(
      cache.obtain('bad', async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    const ok = await cache.obtain('bad', () => cache.store('bad', temp('fine'), 'mp3', {}));
    t.equal(ok.size, 4);
  });
}

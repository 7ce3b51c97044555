/**
 * GENERATED_FILES_QUOTA_BYTES (storage/janitor.ts): over the quota the oldest generated
 * files are deleted, down to nine tenths of it, uploads never; a put that takes the store
 * over it starts a pass at once, not at the next timer; the bytes per class and the
 * evictions are in /metrics.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createFileStore, type ManagedFileStore } from '../../engine/platform/storage/create-file-store.js';
import { janitorSettings } from '../../engine/platform/storage/janitor.js';
import { serve, tempDataDir } from '../support/serve.js';

/** Date a generated file's mark `ago` ms back: the order it was produced in. */
const age = (dataDir: string, name: string, ago: number) => {
  const when = new Date(Date.now() - ago);
  fs.utimesSync(path.join(dataDir, 'generated-files', name), when, when);
};

t.test('GENERATED_FILES_QUOTA_BYTES: 10 GiB by default, 0 for none, nonsense refused', async (t) => {
  t.equal(janitorSettings({}).generatedQuotaBytes, 10 * 1024 ** 3);
  t.equal(janitorSettings({ GENERATED_FILES_QUOTA_BYTES: '0' }).generatedQuotaBytes, 0);
  t.throws(() => janitorSettings({ GENERATED_FILES_QUOTA_BYTES: '10G' }), /GENERATED_FILES_QUOTA_BYTES must be a non-negative integer/);
});

t.test('over the quota the oldest generated files go first, down to nine tenths; uploads stay', async (t) => {
  const dataDir = tempDataDir();
  const files = createFileStore(loadConfig({ DATA_DIR: dataDir, GENERATED_FILES_TTL: '0', GENERATED_FILES_QUOTA_BYTES: '5000' }));
  t.teardown(() => files.close());
  // ten generated files of 1,000 bytes, the first the oldest; one upload of 1,000 bytes
  const generated = [];
  for (let i = 0; i < 10; i++) {
    const file = await files.put(Buffer.alloc(1000, i), { ext: 'png' });
    age(dataDir, file.name, (10 - i) * 60_000);
    generated.push(file);
  }
  const upload = await files.put(Buffer.alloc(1000, 'u'), { ext: 'bin' });
  await files.pin(upload.name);
  await files.janitor.sweep();
  for (const [i, file] of generated.entries()) {
    if (i < 6) t.equal(await files.open(file.name), undefined, `generated file ${i} (older) evicted`);
    else t.ok(await files.open(file.name), `generated file ${i} (newer) kept`);
  }
  t.ok(await files.open(upload.name), 'the upload is never evicted');
  t.match(files.janitor.report(), {
    generated: { files: 4, bytes: 4000 },
    uploads: { files: 1, bytes: 1000 },
    generated_quota_bytes: 5000,
    evicted_generated: { files: 6, bytes: 6000 },
  });
  t.same(await files.measure().then((u) => u.generated), { files: 4, bytes: 4000 }, 'the report matches the disk');
});

t.test('a put that takes the store over its quota starts a pass at once; /metrics reports bytes and evictions', async (t) => {
  // TTL 0: the timer would pass only hourly, so only the put can explain an eviction
  const served = await serve({ GENERATED_FILES_TTL: '0', GENERATED_FILES_QUOTA_BYTES: '3000' });
  t.teardown(served.close);
  const files = served.engine.files as ManagedFileStore;
  await files.janitor.sweep();
  const first = await files.put(Buffer.alloc(1500, 1), { ext: 'png' });
  age(served.engine.config.dataDir, first.name, 60_000);
  t.equal(files.janitor.running, undefined, 'under the quota: no pass');
  const second = await files.put(Buffer.alloc(1500, 2), { ext: 'png' });
  age(served.engine.config.dataDir, second.name, 30_000);
  t.equal(files.janitor.running, undefined, 'at the quota: no pass');
  const third = await files.put(Buffer.alloc(1500, 3), { ext: 'png' });
  t.ok(files.janitor.running, 'over it: a pass started');
  await files.janitor.running;
  // 4,500 bytes down to nine tenths of 3,000: the two oldest go
  t.equal(await files.open(first.name), undefined, 'the oldest went');
  t.equal(await files.open(second.name), undefined, 'and the next');
  t.ok(await files.open(third.name), 'the newest stays');
  const metrics = await (await fetch(`${served.url}/metrics`)).text();
  t.match(metrics, /manifold_stored_bytes\{class="generated"\} 1500/);
  t.match(metrics, /manifold_stored_files\{class="generated"\} 1/);
  t.match(metrics, /manifold_stored_bytes\{class="uploads"\} 0/);
  t.match(metrics, /manifold_generated_evicted_files_total 2/);
  t.match(metrics, /manifold_generated_evicted_bytes_total 3000/);
});

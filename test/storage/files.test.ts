/** Hosted files on local disk: content addressing, and pinning that protects uploads from expiring caches. */
import fs from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import t from 'tap';
import { createLocalFileStore } from '../../engine/platform/storage/local-files.js';
import { tempDataDir } from '../support/serve.js';

t.test('identical bytes share one file; a pinned file survives removeUnpinned', async (t) => {
  const files = createLocalFileStore(tempDataDir(), 'http://x');
  const a = await files.put(Buffer.from('same bytes'), { ext: 'mp3' });
  const b = await files.put(Buffer.from('same bytes'), { ext: 'mp3' });
  t.equal(a.name, b.name, 'content-addressed');
  t.equal(a.url, `http://x/files/${a.name}`);
  await files.pin(a.name);
  t.equal(await files.removeUnpinned(a.name), false, 'pinned: kept');
  t.equal(await text(await (await files.open(a.name))!.read()), 'same bytes');
  const c = await files.put(Buffer.from('other bytes'), { ext: 'mp3' });
  t.equal(await files.removeUnpinned(c.name), true, 'unpinned: removed');
  t.equal(await files.open(c.name), undefined);
  t.equal(await files.removeUnpinned('../../etc/passwd'), false, 'names outside the store are refused');
  t.equal(await files.open('../../etc/passwd'), undefined);
});

t.test('the same bytes put several times at once all succeed (two jobs making one file)', async (t) => {
  const files = createLocalFileStore(tempDataDir(), 'http://x');
  const data = Buffer.alloc(256 * 1024, 7);
  const stored = await Promise.all(Array.from({ length: 8 }, () => files.put(data, { ext: 'zip' })));
  t.equal(new Set(stored.map((s) => s.name)).size, 1);
  t.equal((await files.open(stored[0].name))?.size, data.length);
  t.same(fs.readdirSync(files.tempDir), [], 'no partial file left behind');
});

t.test('adopt moves the temp file in; open reads ranges; a file gone after open is not_found', async (t) => {
  const files = createLocalFileStore(tempDataDir(), 'http://x');
  const temp = path.join(files.tempDir, 'upload-1');
  fs.writeFileSync(temp, '0123456789');
  const stored = await files.adopt(temp, { ext: 'TXT', sha256: 'a'.repeat(64), size: 10 });
  t.equal(stored.name, `${'a'.repeat(64)}.txt`, 'extension lower-cased');
  t.notOk(fs.existsSync(temp), 'temp file taken over');
  const opened = (await files.open(stored.name))!;
  t.equal(opened.size, 10);
  t.equal(opened.publicUrl, undefined, 'disk files are always served by the engine');
  t.equal(await text(await opened.read({ start: 2, end: 4 })), '234');
  await files.removeUnpinned(stored.name);
  await t.rejects(opened.read(), { status: 404, code: 'not_found' });
});

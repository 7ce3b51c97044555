/** Hosted files: content addressing, and pinning that protects uploads from expiring caches. */
import fs from 'node:fs';
import t from 'tap';
import { createFileStore } from '../../engine/storage/files.js';
import { tempDataDir } from '../support/serve.js';

t.test('identical bytes share one file; a pinned file survives removeUnpinned', async (t) => {
  const files = createFileStore(tempDataDir(), 'http://x');
  const a = await files.put(Buffer.from('same bytes'), { ext: 'mp3' });
  const b = await files.put(Buffer.from('same bytes'), { ext: 'mp3' });
  t.equal(a.name, b.name, 'content-addressed');
  t.equal(a.url, `http://x/files/${a.name}`);
  await files.pin(a.name);
  t.equal(files.removeUnpinned(a.name), false, 'pinned: kept');
  t.ok(files.locate(a.name));
  const c = await files.put(Buffer.from('other bytes'), { ext: 'mp3' });
  t.equal(files.removeUnpinned(c.name), true, 'unpinned: removed');
  t.notOk(files.locate(c.name));
  t.equal(files.removeUnpinned('../../etc/passwd'), false, 'names outside the store are refused');
  t.ok(fs.existsSync(files.locate(a.name)!));
});

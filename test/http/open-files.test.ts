/** The open-files limit read for the boot log (engine/platform/http/open-files.ts), and its warning when low. */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { LOW_OPEN_FILES, lowOpenFilesWarning, openFilesLimit } from '../../engine/platform/http/open-files.js';

t.test('read from a /proc limits table', async (t) => {
  const dir = t.testdir({
    limits: [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63448                63448                processes ',
      'Max open files            1024                 524288               files     ',
    ].join('\n'),
  });
  t.same(openFilesLimit(path.join(dir, 'limits')), { soft: 1024, hard: 524288 });
  t.equal(openFilesLimit(path.join(dir, 'none')), undefined, 'no table (not Linux): nothing to say');
  if (fs.existsSync('/proc/self/limits')) t.ok(openFilesLimit()!.soft > 0, "this process's own limit");
});

t.test('a low limit is a boot warning naming where to raise it', async (t) => {
  t.match(lowOpenFilesWarning({ soft: 1024, hard: 1024 }), /open-files limit is 1024.*ulimits nofile.*LimitNOFILE/);
  t.equal(lowOpenFilesWarning({ soft: LOW_OPEN_FILES, hard: LOW_OPEN_FILES }), undefined);
  t.equal(lowOpenFilesWarning(undefined), undefined);
});

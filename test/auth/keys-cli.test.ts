import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { KeyStore } from '../../engine/auth/key-store.js';
import { closeDatabase, openDatabase } from '../../engine/storage/database.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Run `scripts/keys.ts` as `npm run keys` does, in its own process, on `dataDir`. */
function keys(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

t.test('create, list and revoke round trip, seen live by a running server', async (t) => {
  const dataDir = t.testdir();
  t.teardown(() => closeDatabase(dataDir));

  const created = keys(dataDir, 'create', '--tier', 'personal', '--label', 'my bot');
  t.equal(created.code, 0, created.stderr);
  const key = /^key: (mf_\S+)$/m.exec(created.stdout)?.[1];
  const id = /\b(key_[0-9a-f]{12})\b/.exec(created.stdout)?.[1];
  t.ok(key && id, 'prints the key and its id');

  // The server process keeps its store open while the CLI works on the same file.
  const server = new KeyStore(openDatabase(dataDir));
  t.match(await server.verify(key!), { id, tier: 'personal', label: 'my bot' });

  const listed = keys(dataDir, 'list');
  t.equal(listed.code, 0);
  t.match(listed.stdout, new RegExp(`${id}\\s+personal\\s+active\\s+\\S+\\s+my bot`));
  t.notMatch(listed.stdout, /mf_/, 'never prints keys');
  t.notMatch(listed.stdout, /[0-9a-f]{64}/, 'never prints hashes');

  const revoked = keys(dataDir, 'revoke', id!);
  t.equal(revoked.code, 0, revoked.stderr);
  t.equal(await server.verify(key!), undefined, 'the running server refuses the key at once');
  t.match(keys(dataDir, 'list').stdout, new RegExp(`${id}\\s+personal\\s+revoked`));
});

t.test('exit codes', async (t) => {
  const dataDir = t.testdir();
  const unknown = keys(dataDir, 'revoke', 'key_000000000000');
  t.equal(unknown.code, 1, 'unknown id');
  t.match(unknown.stderr, /No key with id key_000000000000/);
  for (const args of [[], ['bogus'], ['create', '--tier', 'gold'], ['create', '--nope'], ['revoke'], ['revoke', 'a', 'b'], ['list', 'x']]) {
    const run = keys(dataDir, ...args);
    t.equal(run.code, 2, `usage error: ${args.join(' ') || '(none)'}`);
    t.match(run.stderr, /usage: npm run keys/);
  }
  t.match(keys(dataDir, 'list'), { code: 0, stdout: /No keys yet/ });
});

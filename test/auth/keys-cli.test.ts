import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { startPostgres } from '../support/postgres.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Run `scripts/keys.ts` as `npm run keys` does, in its own process, with this environment. */
function keys(env: Record<string, string>, ...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], {
    cwd: root,
    // ENV_FILE: a .env in the checkout is a developer's, not this test's
    env: { ...process.env, DATABASE_URL: '', ENV_FILE: '/dev/null', ...env },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const postgres = await startPostgres(t);
const databases = [
  { name: 'sqlite', setup: (dataDir: string) => ({ env: { DATA_DIR: dataDir }, target: { file: path.join(dataDir, 'manifold.db') } }) },
  {
    name: 'postgres',
    setup: async (dataDir: string) => {
      const url = await postgres.newDatabase();
      return { env: { DATA_DIR: dataDir, DATABASE_URL: url }, target: { url } };
    },
  },
];

for (const database of databases) {
  t.test(`${database.name}: create, list and revoke round trip, seen live by a running server`, async (t) => {
    const { env, target } = await database.setup(t.testdir());
    const created = keys(env, 'create', '--tier', 'personal', '--label', 'my bot');
    t.equal(created.code, 0, created.stderr);
    const key = /^key: (mf_\S+)$/m.exec(created.stdout)?.[1];
    const id = /\b(key_[0-9a-f]{12})\b/.exec(created.stdout)?.[1];
    t.ok(key && id, 'prints the key and its id');

    // The server process keeps its store open while the CLI works on the same database.
    const db = openDatabase(target);
    t.teardown(() => db.close());
    const server = new KeyStore(db);
    t.match(await server.verify(key!), { id, tier: 'personal', label: 'my bot' });

    const listed = keys(env, 'list');
    t.equal(listed.code, 0);
    t.match(listed.stdout, new RegExp(`${id}\\s+personal\\s+active\\s+\\S+\\s+my bot`));
    t.notMatch(listed.stdout, /mf_/, 'never prints keys');
    t.notMatch(listed.stdout, /[0-9a-f]{64}/, 'never prints hashes');

    const revoked = keys(env, 'revoke', id!);
    t.equal(revoked.code, 0, revoked.stderr);
    t.equal(await server.verify(key!), undefined, 'the running server refuses the key at once');
    t.match(keys(env, 'list').stdout, new RegExp(`${id}\\s+personal\\s+revoked`));
  });
}

t.test('exit codes', async (t) => {
  const env = { DATA_DIR: t.testdir() };
  const unknown = keys(env, 'revoke', 'key_000000000000');
  t.equal(unknown.code, 1, 'unknown id');
  t.match(unknown.stderr, /No key with id key_000000000000/);
  for (const args of [[], ['bogus'], ['create', '--tier', 'gold'], ['create', '--nope'], ['revoke'], ['revoke', 'a', 'b'], ['list', 'x']]) {
    const run = keys(env, ...args);
    t.equal(run.code, 2, `usage error: ${args.join(' ') || '(none)'}`);
    t.match(run.stderr, /usage: npm run keys/);
  }
  t.match(keys(env, 'list'), { code: 0, stdout: /No keys yet/ });
});

t.test('an unreachable DATABASE_URL is a clear error, not a hang', async (t) => {
  const run = keys({ DATA_DIR: t.testdir(), DATABASE_URL: 'postgres://manifold@127.0.0.1:1/none' }, 'list');
  t.not(run.code, 0);
  t.match(run.stderr, /ECONNREFUSED|connect/);
});

t.test('create and update with rules, validated as the admin API validates them', async (t) => {
  const dataDir = t.testdir();
  const env = { DATA_DIR: dataDir };
  const created = keys(env, 'create', '--rpm', '5000', '--expires', '2026-12-01', '--allow', 'ai/*', '--allow', 'fun,/api/download/*', '--ips', '10.0.0.0/8');
  t.equal(created.code, 0, created.stderr);
  t.match(created.stdout, /rules: rpm=5000 expires=2026-12-01T00:00:00\.000Z allow=ai\/\*,fun,\/api\/download\/\* ips=10\.0\.0\.0\/8/);
  const id = /\b(key_[0-9a-f]{12})\b/.exec(created.stdout)![1]!;
  const db = openDatabase({ file: path.join(dataDir, 'manifold.db') });
  t.teardown(() => db.close());
  const store = new KeyStore(db);
  t.match((await store.list())[0], { id, rpm: 5000, expiresAt: '2026-12-01T00:00:00.000Z', allow: ['ai/*', 'fun', '/api/download/*'], ips: ['10.0.0.0/8'] });

  const updated = keys(env, 'update', id, '--rpm', 'none', '--daily', '100', '--ips', 'none', '--note', 'paid');
  t.equal(updated.code, 0, updated.stderr);
  t.match((await store.list())[0], { id, rpm: null, daily: 100, ips: null, note: 'paid', allow: ['ai/*', 'fun', '/api/download/*'] });
  t.match(keys(env, 'list').stdout, /daily=100/);

  for (const [args, said] of [
    [['create', '--rpm', 'lots'], /Invalid parameter rpm/],
    [['create', '--ips', '300.1.1.1'], /Invalid parameter ips/],
    [['create', '--expires', 'soon'], /Invalid parameter expires_at/],
    [['create', '--rmp', '5'], /Unknown option '--rmp'/],
    [['update', id], /at least one option/],
  ] as const) {
    const refused = keys(env, ...args);
    t.equal(refused.code, 2, args.join(' '));
    t.match(refused.stderr, said);
  }
  t.equal(keys(env, 'update', 'key_000000000000', '--rpm', '5').code, 1, 'an unknown id');
  t.equal((await store.list()).length, 1, 'nothing refused was made');
});

t.test('rotate: a new secret printed once, the old one kept for --grace seconds', async (t) => {
  const dataDir = t.testdir();
  const env = { DATA_DIR: dataDir };
  const created = keys(env, 'create', '--label', 'bot');
  const id = /\b(key_[0-9a-f]{12})\b/.exec(created.stdout)![1]!;
  const oldKey = /^key: (mf_\S+)$/m.exec(created.stdout)![1]!;
  const rotated = keys(env, 'rotate', id, '--grace', '3600');
  t.equal(rotated.code, 0, rotated.stderr);
  t.match(rotated.stdout, /the previous secret works until \d{4}-/);
  const newKey = /^key: (mf_\S+)$/m.exec(rotated.stdout)![1]!;
  const db = openDatabase({ file: path.join(dataDir, 'manifold.db') });
  t.teardown(() => db.close());
  const store = new KeyStore(db);
  t.equal((await store.verify(newKey))?.id, id);
  t.equal((await store.verify(oldKey))?.id, id, 'within the grace');
  t.equal(keys(env, 'rotate', id).code, 0);
  t.equal(await store.verify(newKey), undefined, 'no --grace: the previous secret is refused at once');
  t.equal(keys(env, 'rotate', id, '--grace', 'long').code, 2);
  t.equal(keys(env, 'create', '--grace', '5').code, 2, '--grace is for rotate');
  t.equal(keys(env, 'rotate', 'key_000000000000').code, 1);
});

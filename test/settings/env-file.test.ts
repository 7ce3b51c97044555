import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadEnvFile } from '../../scripts/env-file.mjs';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { ROOT } from '../../engine/core/root.js';

t.test('.env in the working directory: the real environment wins', async (t) => {
  const dir = t.testdir({ '.env': 'PORT=4000\n# a comment\nexport HOST=127.0.0.1\nADMIN_TOKEN="quoted value"\nTEST_API_KEY=from-file\n' });
  const env: Record<string, string | undefined> = { TEST_API_KEY: 'from-environment' };
  const loaded = loadEnvFile(env, dir);
  t.same(env, { TEST_API_KEY: 'from-environment', PORT: '4000', HOST: '127.0.0.1', ADMIN_TOKEN: 'quoted value' });
  t.equal(loaded.file, path.join(dir, '.env'));
  t.same(loaded.loaded.sort(), ['ADMIN_TOKEN', 'HOST', 'PORT'], 'what the file set, not what the environment already had');
});

t.test('no .env is no error; ENV_FILE names another file, which must exist', async (t) => {
  const dir = t.testdir({ 'prod.env': 'PORT=5000\n' });
  t.same(loadEnvFile({}, dir), { loaded: [] });
  const env: Record<string, string | undefined> = { ENV_FILE: 'prod.env' };
  loadEnvFile(env, dir);
  t.equal(env.PORT, '5000');
  t.throws(() => loadEnvFile({ ENV_FILE: 'missing.env' }, dir), { message: /cannot read the env file .*missing\.env \(ENV_FILE\)/ });
  fs.mkdirSync(path.join(dir, '.env'));
  t.throws(() => loadEnvFile({}, dir), { message: /cannot read the env file/ }, 'a .env that cannot be read is reported');
});

t.test("npm run keys reads the same .env, so its keys go to the server's database", async (t) => {
  const cwd = t.testdir({});
  const dataDir = path.join(cwd, 'from-env-file'); // not ./data, the default
  fs.writeFileSync(path.join(cwd, '.env'), `DATA_DIR=${dataDir}\n`);
  const env = { ...process.env, DATA_DIR: undefined, DATABASE_URL: undefined, ENV_FILE: undefined };
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'keys.ts'), 'create', '--label', 'from-env-file'], {
    cwd,
    env,
    encoding: 'utf8',
  });
  t.equal(run.status, 0, run.stderr);
  const db = openDatabase({ file: path.join(dataDir, 'manifold.db') });
  t.teardown(() => db.close());
  t.match(await new KeyStore(db).list(), [{ label: 'from-env-file' }], 'the key is in DATA_DIR from the file');
});

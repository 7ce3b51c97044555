import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { ROOT } from '../../engine/core/root.js';
import { checkSecrets, weakSecretReason } from '../../engine/platform/settings/secret-strength.js';
import { TEST_ADMIN_TOKEN, TEST_METRICS_TOKEN } from '../support/tokens.js';

t.test('placeholders, short and uniform tokens are weak; generated ones are not', async (t) => {
  const weak = {
    'change-me-admin': /shorter than 16/,
    changeme: /shorter than 16/,
    secret: /shorter than 16/,
    admin: /shorter than 16/,
    'change-me-to-something-long': /placeholder \(changeme\)/,
    'my-super-secret-admin-token': /placeholder \(secret, admin, token\)/,
    CHANGEME_CHANGEME_CHANGEME: /placeholder/,
    aaaaaaaaaaaaaaaaaaaaaaaa: /too few different characters/,
    '12121212121212121212': /too few different characters/,
    abcdefghijklmnopqrstuvwx: /a sequence/,
    '0123456789abcdef0123': /a sequence/,
  };
  for (const [value, why] of Object.entries(weak)) t.match(weakSecretReason(value), why, value);
  for (const value of [
    crypto.randomBytes(32).toString('hex'),
    crypto.randomBytes(24).toString('base64url'),
    'prom-scrape-2f9a8b7c6d5e4f30a1b2',
    TEST_ADMIN_TOKEN,
    TEST_METRICS_TOKEN,
  ])
    t.equal(weakSecretReason(value), undefined, value);
});

t.test('a weak ADMIN_TOKEN or METRICS_TOKEN stops loadConfig, naming the variable and how to make one', async (t) => {
  t.throws(() => loadConfig({ ADMIN_TOKEN: 'change-me-admin' }), {
    message: /^ADMIN_TOKEN is too weak \(shorter than 16 characters\): .*openssl rand -hex 32/,
  });
  t.throws(() => loadConfig({ METRICS_TOKEN: 'metrics-secret-token-123' }), { message: /^METRICS_TOKEN is too weak \(a placeholder/ });
  t.doesNotThrow(() => loadConfig({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, METRICS_TOKEN: TEST_METRICS_TOKEN }));
  t.doesNotThrow(() => checkSecrets({}), 'unset tokens are not checked (the routes are then closed or open as documented)');
});

t.test('the server refuses to start with a placeholder token', async (t) => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'engine', 'app', 'main.ts')], {
    env: { PATH: process.env.PATH, ADMIN_TOKEN: 'change-me-admin', PORT: '0', HOST: '127.0.0.1', DATA_DIR: t.testdir() },
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.equal(run.status, 1, run.stderr);
  t.match(run.stderr, /manifold: cannot start: ADMIN_TOKEN is too weak .*openssl rand -hex 32/);
});

import crypto from 'node:crypto';
import t from 'tap';
import { authDeps, authenticate, authenticateKey, TEST_KEY_ID } from '../../engine/platform/auth/authenticate.js';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { loadConfig } from '../../engine/platform/config.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { timingSafeEqualSpy } from './crypto-spy.js';
import { startApp, type TestLike } from './koa-harness.js';

const config = loadConfig({ TEST_API_KEY: 'shared-test-key', TEST_KEY_RPM: '7', PERSONAL_KEY_RPM: '70' });

function deps(t: TestLike) {
  const db = openDatabase({ file: `${t.testdir()}/manifold.db` });
  t.teardown(() => db.close());
  return authDeps(new KeyStore(db), config);
}

t.test('principals by tier, and the two 401s', async (t) => {
  const d = deps(t);
  t.same(await authenticateKey('shared-test-key', d), { keyId: TEST_KEY_ID, tier: 'test', rpm: 7 });
  const personal = await d.store.create({ tier: 'personal' });
  t.same(await authenticateKey(personal.key, d), { keyId: personal.id, tier: 'personal', rpm: 70 });
  const testTier = await d.store.create({ tier: 'test' });
  t.same(await authenticateKey(testTier.key, d), { keyId: testTier.id, tier: 'test', rpm: 7 }, 'tier decides the budget');
  await t.rejects(authenticateKey(undefined, d), { status: 401, code: 'missing_api_key' });
  await t.rejects(authenticateKey('shared-test-keyX', d), { status: 401, code: 'invalid_api_key' });
  await t.rejects(authenticateKey('mf_nope', d), { status: 401, code: 'invalid_api_key' });
  await d.store.revoke(personal.id);
  await t.rejects(authenticateKey(personal.key, d), { status: 401, code: 'invalid_api_key' }, 'revoked at once');
});

t.test('the shared test key is compared in constant time over SHA-256 digests', async (t) => {
  const spy = timingSafeEqualSpy();
  const mod = await t.mockImport<typeof import('../../engine/platform/auth/authenticate.js')>('../../engine/platform/auth/authenticate.js', spy.mocks);
  const d = deps(t);
  t.equal((await mod.authenticateKey('shared-test-key', d)).tier, 'test');
  t.equal(spy.calls.length, 1);
  t.same(spy.calls[0], [crypto.createHash('sha256').update('shared-test-key').digest(), crypto.createHash('sha256').update('shared-test-key').digest()]);
  await t.rejects(mod.authenticateKey('short', d));
  t.equal(spy.calls[1][0].length, 32, 'a wrong key of another length is still compared over 32 bytes');
});

t.test('authenticate reads the key from the request', async (t) => {
  const d = deps(t);
  const url = await startApp(t, (router) => {
    router.all('/whoami', async (ctx) => {
      ctx.state.result = await authenticate(ctx, d);
    });
  });
  const ok = await fetch(`${url}/whoami`, { headers: { 'X-API-Key': 'shared-test-key' } });
  t.same(await ok.json(), { status: 200, success: true, result: { keyId: 'test', tier: 'test', rpm: 7 } });
  const missing = await fetch(`${url}/whoami`);
  t.equal(missing.status, 401);
  t.match(await missing.json(), { status: 401, success: false, error: 'missing_api_key' });
});

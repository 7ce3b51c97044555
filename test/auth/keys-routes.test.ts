import t from 'tap';
import { timingSafeEqualSpy } from './crypto-spy.js';
import { serve } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

/** The key routes are built-ins (engine/pipeline/admin/keys-routes.ts), served by the real engine with no manifests. */
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const JSON_TYPE = { 'Content-Type': 'application/json' };

interface TestLike {
  teardown(fn: () => unknown): void;
}

async function setup(t: TestLike, adminToken?: string) {
  const served = await serve({ ADMIN_TOKEN: adminToken }, { endpoints: [] });
  t.teardown(() => served.close());
  const store = served.engine.keys;
  const call = async (method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) => {
    const response = await fetch(served.url + path, {
      method,
      headers: { ...init.headers, ...(init.body === undefined ? {} : JSON_TYPE) },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { store, call };
}

t.test('create, list and revoke over HTTP', async (t) => {
  const { store, call } = await setup(t, TEST_ADMIN_TOKEN);
  const created = await call('POST', '/api/admin/keys', { headers: ADMIN, body: { tier: 'personal', label: 'bot' } });
  t.equal(created.status, 200);
  t.match(created.body, { status: 200, success: true, result: { id: /^key_/, key: /^mf_/, tier: 'personal', label: 'bot', createdAt: String } });
  t.same(Object.keys(created.body.result).sort(), [
    'allow',
    'createdAt',
    'daily',
    'expiresAt',
    'id',
    'ips',
    'key',
    'label',
    'lastUsedAt',
    'note',
    'revokedAt',
    'rpm',
    'tier',
  ]);
  t.equal((await store.verify(created.body.result.key))?.id, created.body.result.id, 'the returned key works');

  const defaults = await call('POST', '/api/admin/keys', { headers: ADMIN });
  t.match(defaults.body.result, { tier: 'personal', label: null }, 'an empty body makes a personal key');

  const listed = await call('GET', '/api/admin/keys', { headers: ADMIN });
  t.equal(listed.body.result.length, 2);
  t.notMatch(JSON.stringify(listed.body), /mf_|"hash"/, 'the listing shows no keys or hashes');

  const revoked = await call('DELETE', `/api/admin/keys/${created.body.result.id}`, { headers: ADMIN });
  t.equal(revoked.status, 200);
  t.ok(revoked.body.result.revokedAt);
  t.equal(await store.verify(created.body.result.key), undefined, 'revoked at once');

  t.match(await call('DELETE', '/api/admin/keys/key_000000000000', { headers: ADMIN }), { status: 404, body: { error: 'not_found' } });
});

t.test('bad bodies are 400 invalid_parameter', async (t) => {
  const { call } = await setup(t, TEST_ADMIN_TOKEN);
  t.match(await call('POST', '/api/admin/keys', { headers: ADMIN, body: { tier: 'gold' } }), { status: 400, body: { error: 'invalid_parameter' } });
  t.match(await call('POST', '/api/admin/keys', { headers: ADMIN, body: { label: 5 } }), { status: 400, body: { error: 'invalid_parameter' } });
  t.match(await call('POST', '/api/admin/keys', { headers: ADMIN, body: [1] }), { status: 400, body: { error: 'invalid_parameter' } });
});

t.test('every route needs the admin token', async (t) => {
  const { store, call } = await setup(t, TEST_ADMIN_TOKEN);
  const key = await store.create();
  for (const [method, path] of [
    ['POST', '/api/admin/keys'],
    ['GET', '/api/admin/keys'],
    ['DELETE', `/api/admin/keys/${key.id}`],
  ]) {
    const attempts: Record<string, string>[] = [{}, { Authorization: 'Bearer wrong' }, { Authorization: TEST_ADMIN_TOKEN }, { 'X-API-Key': TEST_ADMIN_TOKEN }];
    for (const headers of attempts) {
      const answer = await call(method, path, { headers });
      t.match(answer, { status: 403, body: { status: 403, success: false, error: 'forbidden' } }, `${method} ${path} ${JSON.stringify(headers)}`);
    }
  }
  t.equal((await store.list()).length, 1, 'nothing was created');
  t.ok(await store.verify(key.key), 'nothing was revoked');
});

t.test('without ADMIN_TOKEN admin writes are disabled', async (t) => {
  const { call } = await setup(t, undefined);
  const answer = await call('POST', '/api/admin/keys', { headers: { Authorization: 'Bearer ' } });
  t.match(answer, { status: 403, body: { error: 'forbidden', message: /disabled.*ADMIN_TOKEN/ } });
  // the reads are refused too, so the message says routes, not writes
  t.match(await call('GET', '/api/admin/keys', { headers: ADMIN }), { status: 403, body: { message: /^Admin routes are disabled/ } });
});

t.test('the admin token is compared in constant time', async (t) => {
  const spy = timingSafeEqualSpy();
  const mod = await t.mockImport<typeof import('../../engine/pipeline/admin/admin-token.js')>('../../engine/pipeline/admin/admin-token.js', spy.mocks);
  t.throws(() => mod.requireAdminToken('Bearer x', TEST_ADMIN_TOKEN), { code: 'forbidden' });
  t.doesNotThrow(() => mod.requireAdminToken(ADMIN.Authorization, TEST_ADMIN_TOKEN));
  t.equal(spy.calls.length, 2);
  t.ok(
    spy.calls.every(([a, b]) => a.length === 32 && b.length === 32),
    'over SHA-256 digests',
  );
});

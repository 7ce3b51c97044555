/**
 * Daily quotas per tier: exact across instances (one atomic check-and-take in the
 * shared database), a 429 that names the daily quota with Retry-After to 00:00 UTC,
 * and /checkapikey showing used/limit/remaining. On SQLite and PostgreSQL.
 */
import t from 'tap';
import { openDatabase } from '../../engine/platform/db/database.js';
import { DailyQuota } from '../../engine/platform/limits/daily-quota.js';
import type { ApiError } from '../../engine/core/errors.js';
import { testDialects } from '../support/dialects.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

const { endpoints } = testEndpoints();
const principal = (daily: number, keyId = 'key_q') => ({ keyId, tier: 'personal' as const, rpm: 1000, daily });
const dialects = await testDialects(t);

for (const dialect of dialects) {
  t.test(`${dialect.name}: takes up to the limit, then refuses without taking; a new UTC day starts afresh`, async (t) => {
    const db = await dialect.open(t);
    let now = Date.parse('2026-11-24T23:59:30.200Z');
    const quota = new DailyQuota(db, { now: () => now });
    for (let i = 0; i < 3; i++) await quota.take(principal(3));
    const refused = (await quota.take(principal(3)).catch((e: unknown) => e)) as ApiError;
    t.equal(refused.status, 429);
    t.equal(refused.code, 'daily_quota_exceeded');
    t.match(refused.message, /^Daily quota of 3 requests for personal keys used up; it resets at 00:00 UTC, in 30 s$/);
    t.same(refused.headers, { 'Retry-After': '30' }, 'rounded up to the second');
    await t.rejects(quota.take(principal(3)), { code: 'daily_quota_exceeded' });
    t.same(await quota.state(principal(3)), { limit: 3, used: 3, remaining: 0, resetsAt: '2026-11-25T00:00:00.000Z' }, 'refusals took nothing');
    t.same(await quota.state(principal(5)), { limit: 5, used: 3, remaining: 2, resetsAt: '2026-11-25T00:00:00.000Z' }, 'a raised limit applies at once');
    t.equal(await quota.state({ keyId: 'key_q', tier: 'personal', rpm: 1 }), null, 'no quota, no state');
    now += 60_000;
    await quota.take(principal(3));
    t.same((await quota.state(principal(3)))?.used, 1, 'the next UTC day');
  });

  t.test(`${dialect.name}: two instances racing for the last requests take exactly the limit`, async (t) => {
    const target = await dialect.target(t);
    const [a, b] = [openDatabase(target), openDatabase(target)];
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    const quotas = [new DailyQuota(a), new DailyQuota(b)];
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        quotas[i % 2].take(principal(25, 'key_race')).then(
          () => 'taken',
          (e: ApiError) => e.code,
        ),
      ),
    );
    t.equal(outcomes.filter((o) => o === 'taken').length, 25);
    t.equal(outcomes.filter((o) => o === 'daily_quota_exceeded').length, 35);
    t.equal((await quotas[1].state(principal(25, 'key_race')))?.used, 25);
  });

  t.test(`${dialect.name}: over HTTP — 429 daily_quota_exceeded, /checkapikey still answers, per tier`, async (t) => {
    const served = await serve({ ...(await dialect.env(t)), TEST_KEY_DAILY: '3', PERSONAL_KEY_DAILY: '2', ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { endpoints });
    t.teardown(() => served.close());
    const get = (path: string, key: string) => fetch(served.url + path, { headers: { 'X-API-Key': key } });
    for (let i = 0; i < 3; i++) t.equal((await get('/api/test/one?text=a', TEST_KEY)).status, 200);
    const refused = await get('/api/test/one?text=a', TEST_KEY);
    const body = await refused.json();
    t.equal(refused.status, 429);
    t.equal(body.error, 'daily_quota_exceeded', 'not rate_limited: the daily quota, not the per-minute limit');
    t.match(body.message, /Daily quota of 3 requests for test keys/);
    const midnight = Math.ceil((Date.parse(new Date().toISOString().slice(0, 10)) + 86_400_000 - Date.now()) / 1000);
    t.ok(Math.abs(Number(refused.headers.get('retry-after')) - midnight) <= 2, 'Retry-After: seconds to 00:00 UTC');
    t.ok(refused.headers.get('ratelimit-remaining'), 'the per-minute headers are still there');

    const check = await get('/checkapikey', TEST_KEY);
    t.equal(check.status, 200, 'looking at the quota takes none of it');
    const { result } = await check.json();
    t.match(result.daily_quota, { limit: 3, used: 3, remaining: 0, resets_at: /T00:00:00\.000Z$/ });
    t.equal(result.requests_today, 4, 'the three admitted requests and this one; the refused one is not counted');

    const key = await served.engine.keys.create({ tier: 'personal' });
    for (let i = 0; i < 2; i++) t.equal((await get('/api/test/one?text=a', key.key)).status, 200, 'a personal key has its own quota');
    t.equal((await get('/api/test/one?text=a', key.key)).status, 429);
    t.match((await (await get('/checkapikey', key.key)).json()).result.daily_quota, { limit: 2, used: 2, remaining: 0 });
    const usage = await (
      await fetch(`${served.url}/api/admin/usage?key=${key.id}&endpoint=/api/test/one`, { headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })
    ).json();
    t.equal(usage.result.total, 2, 'usage counts the admitted requests only');
  });
}

t.test('no quota unless set: daily_quota null, no database write per request', async (t) => {
  const served = await serve({}, { endpoints });
  t.teardown(() => served.close());
  const { result } = await (await fetch(`${served.url}/checkapikey`, { headers: { 'X-API-Key': TEST_KEY } })).json();
  t.equal(result.daily_quota, null);
});

t.test('two engines on one PostgreSQL share one exact quota', async (t) => {
  const url = (await dialects.find((d) => d.name === 'postgres')!.env(t)).DATABASE_URL;
  const engines = await Promise.all(
    ['a', 'b'].map((name) => serve({ DATABASE_URL: `${url}?application_name=quota-${name}`, TEST_KEY_DAILY: '10' }, { endpoints })),
  );
  t.teardown(() => Promise.all(engines.map((e) => e.close())));
  const statuses = await Promise.all(
    Array.from({ length: 24 }, (_, i) => fetch(`${engines[i % 2].url}/api/test/one?text=a`, { headers: { 'X-API-Key': TEST_KEY } }).then((r) => r.status)),
  );
  t.equal(statuses.filter((s) => s === 200).length, 10);
  t.equal(statuses.filter((s) => s === 429).length, 14);
});

import t from 'tap';
import { openDatabase } from '../../engine/platform/db/database.js';
import { NO_FIGURES, UsageCounter } from '../../engine/platform/db/usage.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of await testDialects(t)) {
  t.test(`${dialect.name}: counts are batched, then add up per key, endpoint and day`, async (t) => {
    const db = await dialect.open(t);
    let now = Date.parse('2026-11-23T23:59:00Z');
    const usage = new UsageCounter(db, { flushMs: 60_000, now: () => now });
    for (let i = 0; i < 100; i++) usage.count('key_a', 'GET /api/fun/quote');
    usage.count('key_a', 'GET /api/tools/reverse');
    usage.count('key_b', 'GET /api/fun/quote');
    t.same(await usage.totals('key_a'), { today: 101, total: 101 }, 'unwritten counts are visible to this instance');
    t.same(await db.kysely.selectFrom('usage_daily').selectAll().execute(), [], 'nothing written per request');
    await usage.flush();
    t.equal((await db.kysely.selectFrom('usage_daily').selectAll().execute()).length, 3, 'one row per key, endpoint and day');
    t.same(await usage.totals('key_a'), { today: 101, total: 101 }, 'the same once written');

    now += 2 * 60 * 1000; // past midnight UTC
    usage.count('key_a', 'GET /api/fun/quote');
    await usage.flush();
    t.same(await usage.totals('key_a'), { today: 1, total: 102 });
    t.same((await usage.report({ keyId: 'key_a' })).rows, [
      { keyId: 'key_a', endpoint: 'GET /api/fun/quote', day: '2026-11-24', count: 1, ...NO_FIGURES },
      { keyId: 'key_a', endpoint: 'GET /api/fun/quote', day: '2026-11-23', count: 100, ...NO_FIGURES },
      { keyId: 'key_a', endpoint: 'GET /api/tools/reverse', day: '2026-11-23', count: 1, ...NO_FIGURES },
    ]);
    t.same(
      (await usage.report({ from: '2026-11-24' })).rows.map((r) => r.keyId),
      ['key_a'],
    );
    t.same(await usage.totals('key_nobody'), { today: 0, total: 0 });
  });

  t.test(`${dialect.name}: a report filters by key, endpoint and days, sums every matching row, and cuts rows at its limit`, async (t) => {
    const db = await dialect.open(t);
    let now = Date.parse('2026-11-20T12:00:00Z');
    const usage = new UsageCounter(db, { flushMs: 60_000, now: () => now });
    for (const day of [0, 1, 2]) {
      now = Date.parse('2026-11-20T12:00:00Z') + day * 86_400_000;
      usage.count('key_a', 'GET /api/fun/quote', 10 + day);
      usage.count('key_a', 'POST /api/fun/quote', 1);
      usage.count('key_b', 'GET /api/fun/quote', 5);
      usage.count('key_b', 'GET /api/tools/reverse', 2);
    }
    await usage.flush();
    const all = await usage.report();
    t.equal(all.total, 33 + 3 + 15 + 6);
    t.equal(all.rows.length, 12);
    t.equal(all.truncated, false);
    t.same(all.byKey, [
      { keyId: 'key_a', count: 36, ...NO_FIGURES },
      { keyId: 'key_b', count: 21, ...NO_FIGURES },
    ]);
    t.same(all.byEndpoint, [
      { endpoint: 'GET /api/fun/quote', count: 48, ...NO_FIGURES },
      { endpoint: 'GET /api/tools/reverse', count: 6, ...NO_FIGURES },
      { endpoint: 'POST /api/fun/quote', count: 3, ...NO_FIGURES },
    ]);
    t.same(all.byDay, [
      { day: '2026-11-22', count: 20, ...NO_FIGURES },
      { day: '2026-11-21', count: 19, ...NO_FIGURES },
      { day: '2026-11-20', count: 18, ...NO_FIGURES },
    ]);

    const quote = await usage.report({ endpoint: '/api/fun/quote', from: '2026-11-21', to: '2026-11-21' });
    t.equal(quote.total, 11 + 1 + 5, 'a path alone covers every method of it; from and to are inclusive');
    t.same(
      quote.rows.map((r) => `${r.keyId} ${r.endpoint} ${r.count}`),
      ['key_a GET /api/fun/quote 11', 'key_a POST /api/fun/quote 1', 'key_b GET /api/fun/quote 5'],
    );
    t.equal((await usage.report({ endpoint: 'POST /api/fun/quote' })).total, 3, 'a method and path is one endpoint');
    t.equal((await usage.report({ keyId: 'key_b', to: '2026-11-20' })).total, 7);

    const cut = await usage.report({ limit: 2 });
    t.equal(cut.rows.length, 2);
    t.equal(cut.truncated, true);
    t.equal(cut.total, 57, 'the sums still cover every matching row');
    t.same(
      cut.rows.map((r) => r.day),
      ['2026-11-22', '2026-11-22'],
      'newest day first',
    );
    t.equal(cut.byEndpoint.length, 2, 'the largest entries of each sum');
    t.same(await usage.report({ keyId: 'key_nobody' }), {
      rows: [],
      truncated: false,
      total: 0,
      sums: { count: 0, ...NO_FIGURES },
      byKey: [],
      byEndpoint: [],
      byDay: [],
    });
  });

  t.test(`${dialect.name}: two counters' counts add up in the database`, async (t) => {
    // PostgreSQL: two instances' connections; SQLite: one process's connection (its writers are one at a time anyway)
    const target = await dialect.target(t);
    const a = openDatabase(target);
    const b = dialect.name === 'postgres' ? openDatabase(target) : a;
    t.teardown(async () => {
      await a.close();
      await b.close();
    });
    const one = new UsageCounter(a);
    const two = new UsageCounter(b);
    await Promise.all([
      (async () => {
        for (let round = 0; round < 5; round++) {
          for (let i = 0; i < 10; i++) one.count('key_x', 'GET /e');
          await one.flush();
        }
      })(),
      (async () => {
        for (let round = 0; round < 5; round++) {
          for (let i = 0; i < 7; i++) two.count('key_x', 'GET /e');
          await two.flush();
        }
      })(),
    ]);
    t.same(await new UsageCounter(a).totals('key_x'), { today: 85, total: 85 });
  });

  t.test(`${dialect.name}: counts in a flush still being written are neither missed nor counted twice`, async (t) => {
    const db = await dialect.open(t);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // the database answers only when released: the first flush of a just-started instance
    const slow = new Proxy(db, {
      get: (target, prop) => (prop === 'ready' ? gate.then(() => target.ready) : Reflect.get(target, prop)),
    });
    const usage = new UsageCounter(slow, { flushMs: 60_000 });
    usage.count('key_z', 'GET /e');
    const flushing = usage.flush();
    const totals = usage.totals('key_z');
    release();
    await flushing;
    t.same(await totals, { today: 1, total: 1 });
    t.same(await usage.totals('key_z'), { today: 1, total: 1 });
  });

  t.test(`${dialect.name}: a failed write keeps its counts for the next flush; close writes what waits`, async (t) => {
    const target = await dialect.target(t);
    const db = openDatabase(target);
    t.teardown(() => db.close());
    let failing = true;
    const flaky = new UsageCounter(
      new Proxy(db, {
        get(target, prop) {
          if (prop === 'ready') return failing ? Promise.reject(new Error('database down')) : target.ready;
          return Reflect.get(target, prop);
        },
      }),
      { flushMs: 60_000 },
    );
    flaky.count('key_y', 'GET /e', 3);
    await t.rejects(flaky.flush(), /database down/);
    flaky.count('key_y', 'GET /e', 2);
    failing = false;
    await flaky.close();
    const check = new UsageCounter(db);
    t.same(await check.totals('key_y'), { today: 5, total: 5 }, 'nothing lost, nothing counted twice');
  });
}

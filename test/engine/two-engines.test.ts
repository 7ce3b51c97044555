/**
 * Two engines in one process share no pool, child or database: each starts its own on
 * first use, in its own scope (engine/platform/scope.ts) and its own EngineDatabase
 * (engine/platform/db/engine-database.ts), and closing one stops what it started while
 * the other keeps serving.
 */
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { cpuPool } from '../../engine/kinds/handlers/cpu-pool.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { openDatabase } from '../../engine/platform/db/database.js';
import { UsageCounter } from '../../engine/platform/db/usage.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/wordcount');

const wordcount = (url: string, key = TEST_KEY) =>
  fetch(`${url}/api/tools/wordcount`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'two words' }),
  }).then(async (r) => ({ status: r.status, body: await r.json() }));

t.test('each engine runs its own code pool; closing one closes its pool only', async (t) => {
  const [a, b] = await Promise.all([serve({}, { endpoints }), serve({}, { endpoints })]);
  t.teardown(() => b.close());
  t.match(await wordcount(a.url), { status: 200, body: { result: { words: 2 } } });
  t.match(await wordcount(b.url), { status: 200, body: { result: { words: 2 } } });
  t.ok(a.engine.scope.has('cpu') && b.engine.scope.has('cpu'), 'both started a pool on first use');
  const poolA = cpuPool(a.engine);
  t.not(poolA, cpuPool(b.engine), 'not the same pool');
  t.same(
    a.engine.scope.poolStats().map(([name]) => name),
    ['cpu'],
    "/metrics of a reports a's pool",
  );

  await a.close();
  t.notOk(a.engine.scope.has('cpu'), "a's pool is gone with a");
  // the BoundedPool's piscina: its worker threads are stopped
  t.equal((poolA as unknown as { pool: { threads: unknown[] } }).pool.threads.length, 0, "a's worker threads are stopped");
  t.match(await wordcount(b.url), { status: 200, body: { result: { words: 2 } } }, 'b still serves on its own pool');
  t.ok(b.engine.scope.has('cpu'));
});

t.test('each engine keeps keys and usage in the database of its own DATA_DIR; closing one closes its database only', async (t) => {
  const [a, b] = await Promise.all([serve({}, { endpoints }), serve({}, { endpoints })]);
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const [dbA, dbB] = [a.engine.database.current(), b.engine.database.current()];
  t.not(dbA, dbB, 'a database each');
  t.not(dbA.sqlite!.name, dbB.sqlite!.name, 'each in its own DATA_DIR');
  const [keyA, keyB] = await Promise.all([a.engine.keys.create({ tier: 'personal' }), b.engine.keys.create({ tier: 'personal' })]);
  t.match(await wordcount(a.url, keyA.key), { status: 200 }, "a's key on a");
  t.match(await wordcount(b.url, keyA.key), { status: 401 }, "a's key is unknown to b");
  t.same(
    (await b.engine.keys.list()).map((k) => k.id),
    [keyB.id],
    "b's database holds b's key only",
  );

  await a.close(); // writes a's waiting usage counts, then closes its database
  t.ok(dbA.closed, "a's database is closed with a");
  t.notOk(dbB.closed, "b's is open");
  const fileA = openDatabase({ file: dbA.sqlite!.name });
  t.teardown(() => fileA.close());
  t.match(await new UsageCounter(fileA).totals(keyA.id), { today: 1, total: 1 }, "a's request is counted in a's file");
  t.match(await new UsageCounter(dbB).totals(keyA.id), { today: 0, total: 0 }, "and not in b's");
  t.match(await wordcount(b.url, keyB.key), { status: 200 }, 'b still serves a personal key from its database');
  t.equal(b.engine.database.current(), dbB, 'on the same connection');
});

t.test('a scope closes everything it started, once, and a failing close does not keep the others open', async (t) => {
  const scope = new EngineScope();
  const closed: string[] = [];
  scope.own('one', () => 1, { close: async () => void closed.push('one') });
  scope.own('two', () => 2, {
    close: async () => {
      closed.push('two');
      throw new Error('stuck');
    },
  });
  scope.own('three', () => 3, { close: async () => void closed.push('three') });
  t.equal(
    scope.own('one', () => 99),
    1,
    'made once',
  );
  await scope.close();
  t.same(closed.sort(), ['one', 'three', 'two']);
  t.notOk(scope.has('one'));
  await scope.close();
  t.equal(closed.length, 3, 'nothing closed twice');
  t.equal(
    scope.own('one', () => 4),
    4,
    'a resource used again after close is made anew',
  );
});

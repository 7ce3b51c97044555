/**
 * What a daily quota (TEST_KEY_DAILY, PERSONAL_KEY_DAILY) adds to a request, per
 * dialect: the one atomic check-and-take statement, one request at a time and 50
 * at once on one key (they queue on its row), and a refusal once the quota is used
 * up. Compare with bench/db/key-verify.ts (the key check every request pays).
 * Run: node --import tsx bench/db/daily-quota.ts (starts its own PostgreSQL).
 */
import type { Database } from '../../engine/platform/db/database.js';
import { DailyQuota } from '../../engine/platform/limits/daily-quota.js';
import { measure, onEachDialect } from './measure.js';

const principal = (keyId: string, daily: number) => ({ keyId, tier: 'personal' as const, rpm: 1e9, daily });

async function bench(name: string, db: Database): Promise<void> {
  await db.ready;
  const quota = new DailyQuota(db);
  await measure(`${name}: take, one at a time`, 20_000, () => quota.take(principal('key_one', 1e9)));
  await measure(`${name}: take, a batch of 50 concurrent (one key)`, 400, () =>
    Promise.all(Array.from({ length: 50 }, () => quota.take(principal('key_batch', 1e9)))),
  );
  await measure(`${name}: take, a batch of 50 concurrent (50 keys)`, 400, () =>
    Promise.all(Array.from({ length: 50 }, (_, i) => quota.take(principal(`key_many_${i}`, 1e9)))),
  );
  await quota.take(principal('key_full', 1));
  await measure(`${name}: refused (quota used up)`, 5_000, () => quota.take(principal('key_full', 1)).catch(() => undefined));
  await db.close();
}

await onEachDialect(bench);

import t from 'tap';
import { HitLog, MemoryRateLimiter } from '../../engine/platform/limits/memory-rate-limiter.js';

/** A limiter on a hand-driven clock, so window edges are hit exactly. */
function clocked(maxBuckets?: number) {
  const clock = { now: 0 };
  const limiter = new MemoryRateLimiter({ now: () => clock.now, maxBuckets });
  const at = async (ms: number, bucket = 'b', limit = 3, windowMs = 1000) => {
    clock.now = ms;
    return limiter.hit(bucket, limit, windowMs);
  };
  return { limiter, at };
}

t.test('limit hits per window, then denial until the oldest leaves', async (t) => {
  const { at } = clocked();
  t.same(await at(0), { allowed: true, limit: 3, remaining: 2, resetSeconds: 1 });
  t.same(await at(0), { allowed: true, limit: 3, remaining: 1, resetSeconds: 1 });
  t.same(await at(0), { allowed: true, limit: 3, remaining: 0, resetSeconds: 1 });
  t.same(await at(0), { allowed: false, limit: 3, remaining: 0, resetSeconds: 1, retryAfterSeconds: 1 });
  t.equal((await at(999)).allowed, false, '1 ms before the window passes');
  t.same(await at(1000), { allowed: true, limit: 3, remaining: 2, resetSeconds: 1 }, 'a hit leaves exactly windowMs later');
});

t.test('no burst across what would be a fixed-window edge', async (t) => {
  const { at } = clocked();
  for (let i = 0; i < 3; i++) t.equal((await at(900)).allowed, true);
  for (let i = 0; i < 3; i++) t.equal((await at(1100)).allowed, false, 'the three hits at 900 are still in (100, 1100]');
  t.equal((await at(1899)).allowed, false);
  t.equal((await at(1900)).allowed, true);
});

t.test('denied hits cost nothing', async (t) => {
  const { at } = clocked();
  for (let i = 0; i < 3; i++) await at(0);
  for (let ms = 1; ms < 1000; ms += 7) t.equal((await at(ms)).allowed, false);
  for (let i = 0; i < 3; i++) t.equal((await at(1000)).allowed, true, 'the whole budget is back after one window');
});

t.test('reset and retry-after count to the right hit', async (t) => {
  const { at } = clocked();
  const hit = (ms: number, limit = 4) => at(ms, 'r', limit, 60_000);
  await hit(0);
  await hit(10_000);
  t.same(await hit(30_000), { allowed: true, limit: 4, remaining: 1, resetSeconds: 30 }, 'until the hit at 0 leaves');
  t.same(await hit(30_500), { allowed: true, limit: 4, remaining: 0, resetSeconds: 30 }, 'rounded up');
  t.same(await hit(45_000), { allowed: false, limit: 4, remaining: 0, resetSeconds: 15, retryAfterSeconds: 15 });
  t.same(
    await hit(45_000, 2),
    { allowed: false, limit: 2, remaining: 0, resetSeconds: 15, retryAfterSeconds: 45 },
    'a lowered limit frees up only when the hit at 30 000 leaves',
  );
  t.same(await hit(60_000), { allowed: true, limit: 4, remaining: 0, resetSeconds: 10 });
});

t.test('buckets are independent; a zero limit denies for a full window', async (t) => {
  const { at } = clocked();
  for (let i = 0; i < 3; i++) await at(0, 'a');
  t.equal((await at(0, 'a')).allowed, false);
  t.equal((await at(0, 'b')).allowed, true);
  t.same(await at(0, 'z', 0, 5000), { allowed: false, limit: 0, remaining: 0, resetSeconds: 5, retryAfterSeconds: 5 });
});

t.test('the number of buckets held is bounded', async (t) => {
  const { limiter, at } = clocked(2);
  for (const bucket of ['a', 'b', 'c', 'd']) await at(0, bucket);
  t.equal(limiter.size, 2);
  await limiter.close();
  t.equal(limiter.size, 0);
});

t.test('at most limit allowed hits in any window, and every denial was forced', async (t) => {
  // A deterministic pseudo-random stream of hit times (LCG) across many windows.
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const { at } = clocked();
  const limit = 5;
  const windowMs = 1000;
  const allowed: number[] = [];
  let now = 0;
  let denials = 0;
  for (let i = 0; i < 2000; i++) {
    now += Math.floor(random() * 120);
    const decision = await at(now, 'p', limit, windowMs);
    const inWindow = allowed.filter((t0) => t0 > now - windowMs).length;
    if (decision.allowed) {
      allowed.push(now);
      if (inWindow + 1 > limit) t.fail(`over budget at ${now}`);
    } else {
      denials++;
      if (inWindow !== limit) t.fail(`denied at ${now} with only ${inWindow} hits in the window`);
    }
    if (decision.remaining !== Math.max(0, limit - inWindow - (decision.allowed ? 1 : 0))) t.fail(`wrong remaining at ${now}`);
  }
  t.ok(denials > 100 && allowed.length > 100, `both outcomes exercised (${allowed.length} allowed, ${denials} denied)`);
});

t.test('the hit log keeps order across wrap-around and growth', async (t) => {
  const log = new HitLog();
  const model: number[] = [];
  let time = 0;
  // pushes and drops interleaved so the ring wraps before each growth
  for (let round = 0; round < 40; round++) {
    for (let i = 0; i < 3 + (round % 5); i++) {
      log.push(++time);
      model.push(time);
    }
    const cutoff = time - 4 - (round % 7);
    log.dropUntil(cutoff);
    while (model.length && model[0] <= cutoff) model.shift();
    if (log.length !== model.length || model.some((v, i) => log.at(i) !== v)) t.fail(`log differs from the model in round ${round}`);
  }
  t.same(
    Array.from({ length: log.length }, (_, i) => log.at(i)),
    model,
  );
  log.dropUntil(Infinity);
  t.equal(log.length, 0);
});

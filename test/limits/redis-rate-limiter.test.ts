import { Redis } from 'ioredis';
import t from 'tap';
import { createRateLimiter, onRedisFailure } from '../../engine/platform/limits/create-rate-limiter.js';
import { MemoryRateLimiter } from '../../engine/platform/limits/memory-rate-limiter.js';
import { DEFAULT_KEY_PREFIX, localShare, RedisRateLimiter } from '../../engine/platform/limits/redis-rate-limiter.js';
import { startRedis } from './redis-server.js';

const url = await startRedis(t, t.testdir());
const missing = 'redis-server is not on PATH (apt-get install -y redis-server)';
// CI installs redis-server (.ci/run); there a missing server is a broken setup, not a reason to skip.
if (!url && process.env.CI) t.fail(missing);

t.test('on a real redis-server', { skip: url ? false : missing }, async (t) => {
  const redisUrl = url!;

  /** A limiter with its own connection, as each engine instance has; its commands wait however loaded the machine is (exactness is tested here, timeouts in redis-outage). */
  const instance = (t: { teardown(fn: () => unknown): void }) => {
    const limiter = new RedisRateLimiter({ url: redisUrl, commandTimeoutMs: 60_000 });
    t.teardown(() => limiter.close());
    return limiter;
  };
  const inspect = new Redis(redisUrl);
  t.teardown(() => inspect.quit());

  t.test('two instances on one Redis share one budget exactly', async (t) => {
    const a = instance(t);
    const b = instance(t);
    const limit = 25;
    // Connect both first so their hits really race; each alone fires more than the budget.
    await Promise.all([a.hit('warm-up', 100, 1000), b.hit('warm-up', 100, 1000)]);
    const hits = Array.from({ length: 80 }, (_, i) => (i % 2 === 0 ? a : b).hit('shared', limit, 60_000));
    const decisions = await Promise.all(hits);
    const allowed = decisions.filter((d) => d.allowed);
    t.equal(allowed.length, limit, 'exactly limit hits allowed across both instances');
    t.same(
      allowed.map((d) => d.remaining).sort((x, y) => x - y),
      Array.from({ length: limit }, (_, i) => i),
      'each allowed hit saw a distinct count: no two read the same state',
    );
    t.equal(await inspect.zcard(DEFAULT_KEY_PREFIX + 'shared'), limit, 'denied hits were not recorded');
    const denied = decisions.find((d) => !d.allowed)!;
    t.match(denied, { allowed: false, limit, remaining: 0 });
    t.ok(denied.retryAfterSeconds! >= 59 && denied.retryAfterSeconds! <= 60, `retry after a window (${denied.retryAfterSeconds})`);
    t.ok(denied.resetSeconds >= 1 && denied.resetSeconds <= 60);
    const ttl = await inspect.pttl(DEFAULT_KEY_PREFIX + 'shared');
    t.ok(ttl > 0 && ttl <= 60_000, 'the bucket expires with its window');
  });

  t.test('reset, remaining and a sliding window on Redis time', async (t) => {
    const limiter = instance(t);
    t.match(await limiter.hit('slide', 2, 1000), { allowed: true, remaining: 1, resetSeconds: 1 });
    t.match(await limiter.hit('slide', 2, 1000), { allowed: true, remaining: 0, resetSeconds: 1 });
    t.match(await limiter.hit('slide', 2, 1000), { allowed: false, remaining: 0, retryAfterSeconds: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1100)); // let the 1 s window pass on the real clock
    t.match(await limiter.hit('slide', 2, 1000), { allowed: true, remaining: 1 }, 'the budget is back');
    t.same(await limiter.hit('zero', 0, 5000), { allowed: false, limit: 0, remaining: 0, resetSeconds: 5, retryAfterSeconds: 5 });
    t.equal(await inspect.exists(DEFAULT_KEY_PREFIX + 'zero'), 0);
  });

  t.test('buckets are independent and prefixes separate deployments', async (t) => {
    const one = new RedisRateLimiter({ url: redisUrl, keyPrefix: 'one:' });
    const two = new RedisRateLimiter({ url: redisUrl, keyPrefix: 'two:' });
    t.teardown(() => Promise.all([one.close(), two.close()]));
    t.equal((await one.hit('k', 1, 60_000)).allowed, true);
    t.equal((await one.hit('k', 1, 60_000)).allowed, false);
    t.equal((await one.hit('other', 1, 60_000)).allowed, true);
    t.equal((await two.hit('k', 1, 60_000)).allowed, true);
    t.equal(await inspect.zcard('one:k'), 1);
  });

  t.test('createRateLimiter picks Redis only when REDIS_URL is set', async (t) => {
    const redis = createRateLimiter({ redisUrl });
    t.teardown(() => redis.close());
    t.ok(redis instanceof RedisRateLimiter);
    t.equal((await redis.hit('created', 1, 60_000)).allowed, true);
    t.equal(await inspect.zcard(DEFAULT_KEY_PREFIX + 'created'), 1, 'and it really uses that Redis');
    t.ok(createRateLimiter({}) instanceof MemoryRateLimiter);
  });
});

t.test('an unreachable Redis with RATE_LIMIT_ON_REDIS_FAILURE=deny answers 503 unavailable', async (t) => {
  const limiter = new RedisRateLimiter({ url: 'redis://127.0.0.1:1', onFailure: 'deny' });
  t.teardown(() => limiter.close());
  await t.rejects(limiter.hit('x', 1, 1000), { status: 503, code: 'unavailable', headers: { 'Retry-After': '2' }, message: /rate-limit store/ });
});

t.test('an unreachable Redis by default: the budget is counted in memory, this instance alone', async (t) => {
  const limiter = new RedisRateLimiter({ url: 'redis://127.0.0.1:1' });
  t.teardown(() => limiter.close());
  await limiter.registered;
  t.equal(limiter.instances, 1, 'no count was ever read: this instance takes the whole budget');
  const decisions = [];
  for (let i = 0; i < 3; i++) decisions.push(await limiter.hit('x', 2, 60_000));
  t.same(
    decisions.map((d) => [d.allowed, d.limit]),
    [
      [true, 2],
      [true, 2],
      [false, 2],
    ],
  );
});

t.test("each instance's share: the budget over the instances, at least one request", async (t) => {
  t.equal(localShare(7, 2), 3);
  t.equal(localShare(300, 3), 100);
  t.equal(localShare(30, 1), 30);
  t.equal(localShare(1, 4), 1);
  t.equal(localShare(0, 2), 0);
  t.equal(localShare(10, 0), 10, 'an unknown count is one instance');
});

t.test('RATE_LIMIT_ON_REDIS_FAILURE is local or deny; anything else stops the boot', async (t) => {
  t.equal(onRedisFailure({}), 'local');
  t.equal(onRedisFailure({ RATE_LIMIT_ON_REDIS_FAILURE: 'deny' }), 'deny');
  t.throws(() => onRedisFailure({ RATE_LIMIT_ON_REDIS_FAILURE: 'allow' }), /RATE_LIMIT_ON_REDIS_FAILURE must be one of local, deny, got "allow"/);
});

import t from 'tap';
import { enforceRateLimit, RATE_WINDOW_MS } from '../../engine/platform/limits/enforce-rate-limit.js';
import { MemoryRateLimiter } from '../../engine/platform/limits/memory-rate-limiter.js';
import { startApp } from '../auth/koa-harness.js';

t.test('RateLimit-* headers on every keyed response, 429 with Retry-After past the budget', async (t) => {
  const clock = { now: 0 };
  const limiter = new MemoryRateLimiter({ now: () => clock.now });
  const url = await startApp(t, (router) => {
    router.get('/limited', async (ctx) => {
      const keyId = String(ctx.query.key);
      await enforceRateLimit(ctx, limiter, { keyId, tier: 'test', rpm: 2 });
      ctx.state.result = 'ok';
    });
  });
  const get = (key: string) => fetch(`${url}/limited?key=${key}`);
  const headers = (r: Response) => ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After'].map((h) => r.headers.get(h));

  const first = await get('a');
  t.equal(first.status, 200);
  t.same(headers(first), ['2', '1', '60', null]);
  clock.now = 20_000;
  t.same(headers(await get('a')), ['2', '0', '40', null]);
  clock.now = 30_000;
  const limited = await get('a');
  t.equal(limited.status, 429);
  t.same(headers(limited), ['2', '0', '30', '30']);
  t.match(await limited.json(), { status: 429, success: false, error: 'rate_limited', message: /2 requests per minute/ });
  t.equal((await get('b')).status, 200, 'budgets are per key');
  clock.now = RATE_WINDOW_MS;
  t.same(headers(await get('a')), ['2', '0', '20', null], 'the first request left the window after a minute');
});

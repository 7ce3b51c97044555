/**
 * A slow event loop is not a slow Redis: a command whose answer arrived while this
 * process was busy (or unscheduled on a loaded machine) is read, not timed out, and a
 * wait that ran out only because the loop was late never opens the circuit. The loop
 * is blocked here by a synchronous busy wait, the way a loaded process stalls.
 */
import t from 'tap';
import { CircuitBreaker } from '../../engine/core/circuit-breaker.js';
import { watchLoopLag } from '../../engine/core/loop-lag.js';
import { connectRedis, RedisTimeoutError, withDeadline } from '../../engine/platform/redis.js';
import { silentLogger } from '../../engine/platform/log.js';
import { startRedisServer } from './redis-server.js';

const server = await startRedisServer(t, t.testdir());
const missing = 'redis-server is not on PATH (apt-get install -y redis-server)';
if (!server && process.env.CI) t.fail(missing);

/** Hold the event loop for `ms`, as a loaded process does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

t.test('answers that came while the loop was blocked are read, and the circuit stays closed', { skip: server ? false : missing }, async (t) => {
  // the default timeout: Redis, itself on a loaded machine, has that long to answer once this process runs again
  const redis = connectRedis(server!.url, { role: 'test', logger: silentLogger, commandTimeoutMs: 500 });
  t.teardown(() => redis.close());
  t.equal(await redis.run((client) => client.ping()), 'PONG', 'connected');
  for (let i = 0; i < 3; i++) {
    const answer = redis.run((client) => client.incr('loop-lag'));
    // Redis answers within a millisecond; this process reads it only after 3 timeouts' worth of wall clock
    busy(1500);
    t.equal(await answer, i + 1, `command ${i + 1}: answered, though its timer was due long ago`);
  }
  t.equal(redis.circuit, 'closed', 'three blocked waits did not open the circuit (three failures would)');
});

t.test('a wait that ran out because the loop was late is inconclusive; one Redis had in full is a failure', async (t) => {
  const stop = watchLoopLag();
  t.teardown(stop);
  const never = new Promise<never>(() => undefined);
  // the loop blocked for 20 timeouts: the wait runs out on the wall clock (10 timeouts) first
  const stalled = withDeadline(never, 50).catch((e: unknown) => e);
  busy(1000);
  const late = await stalled;
  t.ok(late instanceof RedisTimeoutError, 'it times out');
  t.ok((late as RedisTimeoutError).loopWasLate, `and says the loop was late (${(late as Error).message})`);

  const honest = await withDeadline(never, 50).catch((e: unknown) => e);
  t.ok(honest instanceof RedisTimeoutError);
  t.notOk((honest as RedisTimeoutError).loopWasLate, `an idle loop: Redis had its time (${(honest as Error).message})`);

  const breaker = new CircuitBreaker({ threshold: 1, isInconclusive: (e) => e instanceof RedisTimeoutError && e.loopWasLate });
  await t.rejects(breaker.run(() => Promise.reject(late)));
  t.equal(breaker.state, 'closed', 'the inconclusive one is not counted');
  await t.rejects(breaker.run(() => Promise.reject(honest)));
  t.equal(breaker.state, 'open', 'the real one is');
});

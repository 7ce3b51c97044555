import t from 'tap';
import { CircuitBreaker, CircuitOpenError, type CircuitState } from '../../engine/core/circuit-breaker.js';

/** A breaker on a hand-driven clock, recording its state changes. */
function breaker(options: { threshold?: number; cooldownMs?: number; isFailure?: (e: unknown) => boolean; opensAtOnce?: (e: unknown) => boolean } = {}) {
  let now = 0;
  const changes: string[] = [];
  const b = new CircuitBreaker({ ...options, now: () => now, onChange: (to: CircuitState, from: CircuitState) => changes.push(`${from}>${to}`) });
  return { b, changes, advance: (ms: number) => (now += ms) };
}

const ok = () => Promise.resolve('ok');
const down = () => Promise.reject(new Error('timed out'));

t.test('opens after threshold consecutive failures, then fails at once without calling', async (t) => {
  const { b, changes } = breaker({ threshold: 3, cooldownMs: 1000 });
  await t.rejects(b.run(down), { message: 'timed out' });
  await t.rejects(b.run(down));
  t.equal(b.state, 'closed', 'two failures are not enough');
  t.equal(await b.run(ok), 'ok');
  await t.rejects(b.run(down));
  await t.rejects(b.run(down));
  t.equal(b.state, 'closed', 'a success in between resets the count');
  await t.rejects(b.run(down));
  t.equal(b.state, 'open');
  let called = false;
  const refused = await b.run(async () => (called = true)).catch((e: unknown) => e);
  t.ok(refused instanceof CircuitOpenError, 'rejects with CircuitOpenError');
  t.equal((refused as CircuitOpenError).retryInMs, 1000);
  t.equal(called, false, 'the call is not made while open');
  t.same(changes, ['closed>open']);
});

t.test('after the cooldown one probe goes through: success closes, failure reopens', async (t) => {
  const { b, changes, advance } = breaker({ threshold: 1, cooldownMs: 1000 });
  await t.rejects(b.run(down));
  advance(999);
  await t.rejects(b.run(ok), CircuitOpenError, 'still open just before the cooldown ends');
  advance(1);
  await t.rejects(b.run(down), { message: 'timed out' }, 'the probe is made');
  t.equal(b.state, 'open', 'a failed probe reopens');
  await t.rejects(b.run(ok), CircuitOpenError, 'for another cooldown');
  advance(1000);
  let release!: () => void;
  const probe = b.run(() => new Promise<string>((resolve) => (release = () => resolve('back'))));
  t.equal(b.state, 'half-open');
  await t.rejects(b.run(ok), CircuitOpenError, 'one probe at a time: others still fail at once');
  release();
  t.equal(await probe, 'back');
  t.equal(b.state, 'closed');
  t.equal(await b.run(ok), 'ok');
  t.same(changes, ['closed>open', 'open>half-open', 'half-open>open', 'open>half-open', 'half-open>closed']);
});

t.test('errors the dependency answered with do not count', async (t) => {
  const { b } = breaker({ threshold: 1, isFailure: (e) => (e as Error).name !== 'ReplyError' });
  const reply = Object.assign(new Error('ERR script'), { name: 'ReplyError' });
  await t.rejects(
    b.run(() => Promise.reject(reply)),
    { name: 'ReplyError' },
  );
  t.equal(b.state, 'closed');
});

t.test('a late failure of a call started before the circuit opened does not extend the cooldown', async (t) => {
  const { b, advance } = breaker({ threshold: 1, cooldownMs: 1000 });
  let fail!: () => void;
  const slow = b.run(() => new Promise((_, reject) => (fail = () => reject(new Error('late')))));
  await t.rejects(b.run(down));
  advance(600);
  fail();
  await t.rejects(slow);
  advance(400);
  t.equal(await b.run(ok), 'ok', 'the probe runs 1000 ms after opening, not after the late failure');
});

t.test('a failure seen outside run() counts like a failed call, and changes nothing while open', async (t) => {
  const { b, changes, advance } = breaker({ threshold: 2, cooldownMs: 1000, isFailure: (e) => (e as Error).message !== 'answered' });
  b.failure(new Error('answered'));
  b.failure(new Error('timed out'));
  t.equal(b.state, 'closed', 'one failure of two (the answered error does not count)');
  b.failure(new Error('timed out'));
  t.equal(b.state, 'open', 'the second opens it');
  await t.rejects(b.run(ok), CircuitOpenError);
  advance(600);
  b.failure(new Error('timed out'));
  advance(400);
  t.equal(await b.run(ok), 'ok', 'a failure while open does not restart the cooldown');
  t.same(changes, ['closed>open', 'open>half-open', 'half-open>closed']);
});

t.test('a failure opensAtOnce names opens the circuit before the threshold; others count up to it', async (t) => {
  const timeout = () => Promise.reject(new Error('timed out'));
  const refused = () => Promise.reject(new Error('refused'));
  const answered = Object.assign(new Error('timed out in a script'), { name: 'ReplyError' });
  const { b, changes, advance } = breaker({
    threshold: 3,
    cooldownMs: 1000,
    isFailure: (e) => (e as Error).name !== 'ReplyError',
    opensAtOnce: (e) => (e as Error).message.startsWith('timed out'),
  });
  await t.rejects(b.run(() => Promise.reject(answered)));
  t.equal(b.state, 'closed', 'opensAtOnce only weighs failures: an error isFailure rules out does not count');
  await t.rejects(b.run(refused));
  await t.rejects(b.run(refused));
  t.equal(b.state, 'closed', 'two fast failures are not enough');
  t.equal(await b.run(ok), 'ok');
  await t.rejects(b.run(timeout), { message: 'timed out' });
  t.equal(b.state, 'open', 'one timeout is');
  await t.rejects(b.run(ok), CircuitOpenError);
  advance(1000);
  t.equal(await b.run(ok), 'ok', 'closed by a probe as usual');
  b.failure(new Error('refused'));
  t.equal(b.state, 'closed', 'a fast failure seen outside run() counts one');
  b.failure(new Error('timed out'));
  t.equal(b.state, 'open', 'a timeout seen outside run() opens it at once');
  advance(600);
  b.failure(new Error('timed out'));
  advance(400);
  t.equal(await b.run(ok), 'ok', 'a timeout while open does not restart the cooldown');
  await t.rejects(b.run(refused));
  await t.rejects(b.run(refused));
  await t.rejects(b.run(refused));
  t.equal(b.state, 'open', 'the third fast failure in a row opens it');
  t.same(changes, ['closed>open', 'open>half-open', 'half-open>closed', 'closed>open', 'open>half-open', 'half-open>closed', 'closed>open']);
});

t.test('with a probe function the probe runs in the background: no caller waits for it', async (t) => {
  let now = 0;
  let answer!: (ok: boolean) => void;
  let probes = 0;
  const b = new CircuitBreaker({
    threshold: 1,
    cooldownMs: 1000,
    now: () => now,
    probe: () => {
      probes++;
      return new Promise((resolve, reject) => (answer = (ok) => (ok ? resolve('pong') : reject(new Error('timed out')))));
    },
  });
  await t.rejects(b.run(down));
  now += 1000;
  let called = false;
  await t.rejects(
    b.run(async () => (called = true)),
    CircuitOpenError,
    'the caller after the cool-down fails at once too',
  );
  t.equal(called, false, 'its call is not made: the probe is');
  t.equal(probes, 1);
  t.equal(b.state, 'half-open');
  await t.rejects(b.run(ok), CircuitOpenError, 'while the probe is out');
  answer(false);
  await new Promise(setImmediate);
  t.equal(b.state, 'open', 'a failed probe reopens for another cool-down');
  await t.rejects(b.run(ok), CircuitOpenError);
  t.equal(probes, 1, 'no new probe before it');
  now += 1000;
  await t.rejects(b.run(ok), CircuitOpenError);
  answer(true);
  await new Promise(setImmediate);
  t.equal(b.state, 'closed', 'an answered probe closes it');
  t.equal(await b.run(ok), 'ok');
});

t.test('an inconclusive error is counted neither way', async (t) => {
  const inconclusive = new Error('late loop');
  const b = new CircuitBreaker({ threshold: 2, isInconclusive: (e) => e === inconclusive });
  await t.rejects(b.run(down));
  for (let i = 0; i < 5; i++) await t.rejects(b.run(() => Promise.reject(inconclusive)));
  t.equal(b.state, 'closed', 'five inconclusive after one failure: still closed');
  await t.rejects(b.run(down));
  t.equal(b.state, 'open', 'the second real failure in a row opens it: the inconclusive ones did not reset the count');
});

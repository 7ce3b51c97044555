import t from 'tap';
import { JobSlots } from '../../engine/features/media/job-slots.js';

t.test('at most `limit` run, at most `queue` wait, the rest are overloaded', async (t) => {
  const slots = new JobSlots(1, 1);
  const never = new AbortController().signal;
  const first = await slots.acquire(never);
  let secondGot = false;
  const second = slots.acquire(never).then((release) => {
    secondGot = true;
    return release;
  });
  await t.rejects(slots.acquire(never), { status: 503, code: 'overloaded' });
  t.equal(slots.queued, 1);
  t.notOk(secondGot, 'the waiter waits');
  first();
  first(); // a second release is a no-op
  const release = await second;
  t.ok(secondGot, 'the slot passed to the waiter');
  t.equal(slots.active, 1);
  release();
  t.equal(slots.active, 0);
});

t.test('a waiter whose client leaves drops out of the queue', async (t) => {
  const slots = new JobSlots(1, 2);
  const held = await slots.acquire(new AbortController().signal);
  const leaving = new AbortController();
  const waiting = slots.acquire(leaving.signal);
  t.equal(slots.queued, 1);
  leaving.abort(new Error('client gone'));
  await t.rejects(waiting, /client gone/);
  t.equal(slots.queued, 0);
  held();
  t.equal(slots.active, 0, 'nobody inherited the slot');
});

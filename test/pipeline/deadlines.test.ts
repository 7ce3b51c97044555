import t from 'tap';
import { Deadlined, DeadlineQueue, Deadlines } from '../../engine/pipeline/deadlines.js';

/** An entry that records its expiry. */
class Entry extends Deadlined {
  expiredWith: number | undefined;
  constructor(
    readonly name: string,
    private readonly expired: string[],
  ) {
    super();
  }
  expire(timeoutMs: number) {
    this.expiredWith = timeoutMs;
    this.expired.push(this.name);
  }
}

const until = (done: () => boolean) =>
  new Promise<void>((resolve) => {
    const poll = () => (done() ? resolve() : setTimeout(poll, 5));
    poll();
  });

t.test('calls still in the queue at their deadline expire, oldest first; removed ones never do', async (t) => {
  const expired: string[] = [];
  // 200 ms, far beyond the 10 ms pause below even on a loaded machine (20 ms was not)
  const queue = new DeadlineQueue(200);
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => new Entry(name, expired));
  queue.add(a);
  queue.add(b);
  queue.add(c);
  queue.remove(b);
  t.equal(queue.size, 2);
  await new Promise((r) => setTimeout(r, 10));
  queue.add(d); // later deadline: expires on a later pass of the same single timer
  queue.remove(a);
  await until(() => expired.length === 2);
  t.same(expired, ['c', 'd']);
  t.equal(c.expiredWith, 200, 'told the timeout it missed');
  t.equal(queue.size, 0);
  queue.remove(c); // removing twice is a no-op
  t.equal(queue.size, 0);
});

t.test('the queue is reusable after it drained', async (t) => {
  const expired: string[] = [];
  const queue = new DeadlineQueue(5);
  queue.add(new Entry('first', expired));
  await until(() => expired.length === 1);
  queue.add(new Entry('second', expired));
  await until(() => expired.length === 2);
  t.same(expired, ['first', 'second']);
});

t.test('an entry moves between queues only through remove', async (t) => {
  const expired: string[] = [];
  const deadlines = new Deadlines();
  t.equal(deadlines.for(100), deadlines.for(100), 'one queue per timeout');
  const entry = new Entry('x', expired);
  deadlines.for(100).add(entry);
  deadlines.for(200).remove(entry);
  t.equal(deadlines.for(100).size, 1, 'another queue cannot unlink it');
  deadlines.for(100).remove(entry);
  t.equal(deadlines.for(100).size, 0);
});

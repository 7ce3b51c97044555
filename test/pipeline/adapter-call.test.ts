import { EventEmitter } from 'node:events';
import type { Context } from 'koa';
import t from 'tap';
import { AdapterCall } from '../../engine/pipeline/adapter-call.js';
import { DeadlineQueue } from '../../engine/pipeline/deadlines.js';
import { json, type Output } from '../../engine/contract/call.js';

/** The parts of a Koa context an AdapterCall touches. */
function fakeContext() {
  const res = Object.assign(new EventEmitter(), { writableFinished: false, destroyed: false });
  const ctx = { res, ip: '203.0.113.9', headers: { 'user-agent': 'test' }, request: {} } as unknown as Context;
  return { ctx, res };
}

const caller = { keyId: 'key_1', tier: 'personal' as const };
const newCall = (ctx: Context) => new AdapterCall({ q: 'x' }, caller, 'http://api.test', 'req-1', ctx);
const never = () => new Promise<Output>(() => {});

t.test('an adapter that never reads the signal gets no controller and no close listener', async (t) => {
  const { ctx, res } = fakeContext();
  const queue = new DeadlineQueue(60_000);
  const call = newCall(ctx);
  t.same(await call.run(Promise.resolve(json(1)), queue), json(1));
  t.equal(res.listenerCount('close'), 0);
  t.equal(queue.size, 0, 'done calls leave the deadline queue');
  t.same([call.params, call.caller, call.baseUrl, call.requestId], [{ q: 'x' }, caller, 'http://api.test', 'req-1']);
  t.same(call.client, { ip: '203.0.113.9', headers: { 'user-agent': 'test' } });
  t.same(call.files, {});
});

t.test('a failing adapter rejects with its own error and leaves the queue', async (t) => {
  const { ctx } = fakeContext();
  const queue = new DeadlineQueue(60_000);
  await t.rejects(newCall(ctx).run(Promise.reject(new Error('boom')), queue), { message: 'boom' });
  t.equal(queue.size, 0);
});

t.test('the client leaving aborts the signal and the call with 499', async (t) => {
  const { ctx, res } = fakeContext();
  const call = newCall(ctx);
  const running = call.run(never(), new DeadlineQueue(60_000));
  const { signal } = call;
  t.equal(res.listenerCount('close'), 1, 'listening once the signal is taken');
  t.equal(call.signal, signal, 'one signal per call');
  res.emit('close');
  t.ok(signal.aborted);
  t.match(signal.reason, { status: 499, code: 'client_closed' });
  await t.rejects(running, { status: 499, code: 'client_closed' });
});

t.test('closing after the answer was written aborts nothing', async (t) => {
  const { ctx, res } = fakeContext();
  const call = newCall(ctx);
  await call.run(Promise.resolve(json(1)), new DeadlineQueue(60_000));
  const { signal } = call;
  res.writableFinished = true;
  res.emit('close');
  t.notOk(signal.aborted);
});

t.test('a signal first read after the client left starts aborted', async (t) => {
  const { ctx, res } = fakeContext();
  res.destroyed = true;
  const call = newCall(ctx);
  const running = call.run(never(), new DeadlineQueue(60_000));
  t.ok(call.signal.aborted);
  await t.rejects(running, { status: 499, code: 'client_closed' });
});

t.test('the timeout rejects with 504 and aborts the signal, even one read afterwards', async (t) => {
  const { ctx } = fakeContext();
  const queue = new DeadlineQueue(10);
  const taken = newCall(ctx);
  const late = newCall(ctx);
  const runs = [taken.run(never(), queue), late.run(never(), queue)];
  const { signal } = taken;
  await t.rejects(runs[0], { status: 504, code: 'upstream_timeout', message: 'No answer within 10 ms' });
  await t.rejects(runs[1], { status: 504, code: 'upstream_timeout' });
  t.match(signal.reason, { status: 504 });
  t.match(late.signal.reason, { status: 504 }, 'aborted at once when read after the deadline');
  t.equal(queue.size, 0);
});

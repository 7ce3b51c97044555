import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { startRedis } from '../limits/redis-server.js';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { startReceiver, startSite, web2zip } from './site.js';

/**
 * One receiver that never answers must delay no other's webhooks. Jobs whose callbacks go
 * to a receiver that accepts the POST and hangs (its deliveries end only at
 * WEBHOOK_TIMEOUT_MS, set to 5 minutes here) are finished first, more of them than a worker
 * had delivery slots (4 before); then one job calls back a healthy receiver. Its delivery
 * must arrive while every hanging delivery is still hanging: an ordering of events, no
 * clock. Before, the hanging deliveries held every slot and the healthy receiver's waited
 * for their timeout. With BullMQ (REDIS_URL) and with the in-process queue.
 */
const HANGING_JOBS = 6;
const PER_RECEIVER = 2;

/** A receiver that takes each POST and never answers; counts the requests that came and those that ended. */
async function startHangingReceiver(t: { teardown(fn: () => unknown): void }) {
  const seen = { arrived: 0, ended: 0 };
  let notify = () => undefined as void;
  const server = http.createServer((req) => {
    seen.arrived++;
    req.resume();
    req.socket.once('close', () => seen.ended++);
    notify();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    seen,
    /** Resolves once `n` deliveries are hanging here. */
    hanging: (n: number) =>
      new Promise<void>((resolve) => {
        notify = () => void (seen.arrived - seen.ended >= n && resolve());
        notify();
      }),
  };
}

const redisUrl = await startRedis(t, t.testdir());
if (!redisUrl) throw new Error('redis-server is not installed: apt-get install -y redis-server');

for (const [name, queueEnv] of [
  ['BullMQ', { REDIS_URL: redisUrl }],
  ['in-process queue', {}],
] as const) {
  t.test(`${name}: a receiver that hangs delays no other receiver's webhook`, async (t) => {
    const env = {
      ...queueEnv,
      DATA_DIR: tempDataDir(),
      TEST_KEY_MAX_JOBS: '20',
      WEBHOOK_TIMEOUT_MS: '300000',
      WEBHOOK_ATTEMPTS: '1',
      WEBHOOK_RECEIVER_CONCURRENCY: String(PER_RECEIVER),
    };
    const engine = await serve(env, { endpoints: web2zip });
    await engine.engine.start();
    t.teardown(() => engine.close());
    const site = encodeURIComponent(await startSite(t, { assets: 1 }));
    const submit = async (callback: string) => {
      const res = await fetch(`${engine.url}/api/tools/web2zip?url=${site}&async=true&callback_url=${encodeURIComponent(callback)}`, {
        headers: { 'X-API-Key': TEST_KEY },
      });
      t.equal(res.status, 202);
    };

    const hanging = await startHangingReceiver(t);
    for (let i = 0; i < HANGING_JOBS; i++) await submit(`${hanging.url}?n=${i}`);
    await hanging.hanging(Math.min(PER_RECEIVER, HANGING_JOBS));

    const healthy = await startReceiver(t, 'unused');
    await submit(healthy.url);
    const [delivery] = await healthy.received(1, 120_000);
    const atArrival = { ...hanging.seen };
    t.match(JSON.parse(delivery!.body), { status: 'completed' }, 'the healthy receiver got its webhook');
    t.equal(atArrival.ended, 0, 'while every delivery to the hanging receiver was still hanging');
    if (name === 'BullMQ')
      t.ok(atArrival.arrived <= PER_RECEIVER, `the hanging receiver held at most ${PER_RECEIVER} deliveries at once (${atArrival.arrived})`);
  });
}

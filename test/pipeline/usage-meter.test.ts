/**
 * The usage meter (pipeline/usage-meter.ts) measures each answer's body. An object body
 * (error envelopes, 202 job receipts) is serialised once: the meter hands Koa the text
 * it measured, and the client gets the same bytes, type and length Koa would have sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import t, { type Test } from 'tap';
import { meterAnswer } from '../../engine/pipeline/usage-meter.js';
import type { EngineMetrics, RequestLabels } from '../../engine/platform/metrics/metrics.js';

async function serve(t: Test, body: () => unknown, status = 200) {
  const measured: { bytes: number; body: unknown }[] = [];
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } finally {
      const metrics = { answerFigures: (_labels: RequestLabels, _tier: string, bytes: number) => measured.push({ bytes, body: ctx.body }) };
      meterAnswer(ctx, undefined, metrics as unknown as EngineMetrics);
    }
  });
  app.use((ctx) => {
    ctx.status = status;
    ctx.body = body();
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, measured };
}

t.test('an object body is serialised once, and sent as Koa would send it', async (t) => {
  const envelope = { status: 404, success: false, creator: 'Manifold', error: 'not_found', message: 'Nothing here: ü' };
  const { url, measured } = await serve(t, () => envelope, 404);
  const res = await fetch(url);
  const text = await res.text();
  t.equal(res.status, 404);
  t.equal(text, JSON.stringify(envelope));
  t.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
  t.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
  t.same(measured, [{ bytes: Buffer.byteLength(text), body: text }], 'the meter measured the text Koa then sent');
});

t.test('a list body too; a string or a buffer is left as it is', async (t) => {
  for (const [name, body, type] of [
    ['list', [1, 'two'], 'application/json; charset=utf-8'],
    ['string', 'plain', 'text/plain; charset=utf-8'],
    ['buffer', Buffer.from('bytes'), 'application/octet-stream'],
  ] as const) {
    const { url, measured } = await serve(t, () => body);
    const res = await fetch(url);
    const text = await res.text();
    t.equal(text, typeof body === 'object' && !Buffer.isBuffer(body) ? JSON.stringify(body) : String(body), name);
    t.equal(res.headers.get('content-type'), type, `${name}: type`);
    t.equal(measured[0].bytes, Buffer.byteLength(text), `${name}: measured`);
  }
});

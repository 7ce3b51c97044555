import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';

/**
 * What the job tests run: /api/tools/web2zip (a real long-running endpoint, `async: true`,
 * which reports real progress per asset) against a local site, and a local webhook
 * receiver that checks signatures the way a client would.
 */
export const web2zip = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/web2zip');

/**
 * A page with `assets` images; each asset answers after `delayMs` (so a job stays running a
 * while), and not before `gate` has resolved (a job held running until the test lets it go).
 */
export async function startSite(
  t: { teardown(fn: () => unknown): void },
  options: { assets: number; delayMs?: number; gate?: Promise<unknown> },
): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.url === '/') {
      const imgs = Array.from({ length: options.assets }, (_, i) => `<img src="/a${i}.png">`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<html><head><title>t</title></head><body>${imgs}</body></html>`);
      return;
    }
    const answer = () => setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from(`png ${req.url}`)), options.delayMs ?? 0);
    if (options.gate) void options.gate.then(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * A page whose one asset never answers: a job fetching it runs until it is stopped.
 * `requested` resolves when the asset's request arrives (the job is under way) and
 * `aborted` when that request's connection is closed before any answer (the work was stopped).
 */
export async function startHangingSite(t: { teardown(fn: () => unknown): void }) {
  let requested!: () => void;
  let aborted!: () => void;
  const events = {
    requested: new Promise<void>((resolve) => (requested = resolve)),
    aborted: new Promise<void>((resolve) => (aborted = resolve)),
  };
  const server = http.createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><img src="/hang.png"></body></html>');
    res.on('close', () => res.writableFinished || aborted());
    requested();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, ...events };
}

export interface Delivery {
  body: string;
  signature?: string;
  /** The signature recomputed with the secret matches. */
  valid: boolean;
}

/** A webhook receiver: records each delivery; answers `statuses` in turn (then 200). */
export async function startReceiver(t: { teardown(fn: () => unknown): void }, secret: string, statuses: number[] = []) {
  const deliveries: Delivery[] = [];
  let notify: () => void = () => undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-manifold-signature'] as string | undefined;
      const expected = `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
      const valid = signature !== undefined && signature.length === expected.length && crypto.timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
      deliveries.push({ body, signature, valid });
      res.writeHead(statuses.shift() ?? 200).end();
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?token=abc`,
    deliveries,
    /** Resolves once `n` deliveries have arrived. */
    async received(n: number, timeoutMs = 15_000): Promise<Delivery[]> {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < n) {
        if (Date.now() > deadline) throw new Error(`only ${deliveries.length} of ${n} webhook deliveries arrived`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 200);
        });
      }
      return deliveries;
    },
  };
}

/** Poll a job until it has finished (the client's way: GET /api/jobs/:id). */
export async function jobWhenDone(base: string, id: string, key: string, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await (await fetch(`${base}/api/jobs/${id}`, { headers: { 'X-API-Key': key } })).json()).result;
    if (job.status === 'completed' || job.status === 'failed') return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import Koa from 'koa';
import { loadConfig } from '../../engine/platform/config.js';
import { createEngine, ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import type { Endpoint } from '../../engine/core/manifest-types.js';
import { silentLogger } from '../../engine/platform/log.js';
import { tuneV8 } from '../../engine/core/v8-flags.js';
import { authDeps, authenticateKey } from '../../engine/platform/auth/authenticate.js';
import { keyBeforeBody } from '../../engine/platform/auth/key-from-request.js';
import { KeyStore } from '../../engine/platform/auth/key-store.js';
import { EngineDatabase } from '../../engine/platform/db/engine-database.js';
import { UsageCounter } from '../../engine/platform/db/usage.js';
import { enforceRateLimit } from '../../engine/platform/limits/enforce-rate-limit.js';
import { MemoryRateLimiter } from '../../engine/platform/limits/memory-rate-limiter.js';

/**
 * One benchmark target per process (run.ts starts them), so the server has its own
 * core and autocannon's work is not counted against it. Prints one JSON line with
 * the port (and, for the engine, the registry it serves) once listening, and
 * answers any IPC message with its CPU usage so far.
 *
 *   node --import tsx bench/engine/servers.ts node-http | node-json | koa | koa-json | koa-keyed | engine
 */

export const BENCH_KEY = 'bench-key';
export const REGISTRY_SIZE = 1210;
export const FIRST_PATH = '/api/bench/first';
export const LAST_PATH = '/api/bench/last';

/** The real catalog with /api/fun/quote clones registered first and last, padded to `size` endpoints. */
export function paddedEndpoints(size = REGISTRY_SIZE): { endpoints: Endpoint[]; real: number } {
  const real = loadEndpoints(ENDPOINTS_DIR);
  const quote = real.find((e) => e.path === '/api/fun/quote');
  if (!quote) throw new Error('the bench needs endpoints/fun/quote.yaml');
  const clone = (p: string): Endpoint => ({ ...quote, id: `${quote.method} ${p}`, path: p, aliases: [] });
  const padding = Array.from({ length: Math.max(0, size - real.length - 2) }, (_, i) => clone(`/api/bench/pad-${String(i).padStart(4, '0')}`));
  return { endpoints: [clone(FIRST_PATH), ...real, ...padding, clone(LAST_PATH)], real: real.length };
}

/** The engine's configuration for the bench: the bench key as the test key, its rate limit out of reach, no access log. */
const benchConfig = () =>
  loadConfig({
    TEST_API_KEY: BENCH_KEY,
    TEST_KEY_RPM: '1000000000',
    LOG_REQUESTS: '0',
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bench-')),
    PATH: process.env.PATH,
  });

function engineServer(): { server: http.Server; info: Record<string, unknown> } {
  // as engine/app/main.ts runs it
  tuneV8();
  const { endpoints, real } = paddedEndpoints();
  const config = benchConfig();
  const engine = createEngine({ config, endpoints, logger: silentLogger });
  return { server: http.createServer(engine.app.callback()), info: { registered: engine.registry.routes.length, real } };
}

function koaServer(): http.Server {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = 'Hello World';
  });
  return http.createServer(app.callback());
}

/** The quotes data set the engine's /api/fun/quote serves. */
const quotes = () =>
  JSON.parse(fs.readFileSync(path.join(ENDPOINTS_DIR, 'fun/data/quotes.json'), 'utf8')) as { text: string; author: string; tags: string[] }[];

/** The headers and body the engine's quote answers with, for the reference servers. */
function quoteAnswer(list: ReturnType<typeof quotes>) {
  const q = list[Math.floor(Math.random() * list.length)];
  return {
    headers: {
      'X-Request-Id': crypto.randomUUID(),
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After',
      'RateLimit-Limit': '1000000000',
      'RateLimit-Remaining': '999999999',
      'RateLimit-Reset': '60',
    },
    body: { status: 200, success: true, creator: 'Manifold', result: { quote: q.text, author: q.author, tags: q.tags } },
  };
}

/**
 * Reference point, not a target: bare Koa answering what the engine's quote answers
 * (envelope, request id, CORS and RateLimit headers, a random quote) without auth,
 * rate limiting, validation or dispatch — what serialising and sending costs alone.
 */
function koaJsonServer(): http.Server {
  const list = quotes();
  const app = new Koa();
  app.use((ctx) => {
    const { headers, body } = quoteAnswer(list);
    ctx.set(headers);
    ctx.body = body;
  });
  return http.createServer(app.callback());
}

/**
 * Reference point: the Koa JSON reference after the work every keyed request must do,
 * with the engine's own functions (the key read from the headers and checked, the rate
 * limit with its headers, the request counted in the key's usage), and nothing of the
 * registry (no route lookup, validation, adapter, deadline, metrics). The engine's
 * distance to this row is what its generic machinery costs.
 */
function koaKeyedServer(): http.Server {
  tuneV8();
  const list = quotes();
  const config = benchConfig();
  const database = new EngineDatabase(config);
  const auth = authDeps(new KeyStore(database), config);
  const limiter = new MemoryRateLimiter();
  const usage = new UsageCounter(database);
  const app = new Koa();
  app.silent = true;
  app.use(async (ctx) => {
    const principal = await authenticateKey(keyBeforeBody(ctx), auth);
    enforceRateLimit(ctx, limiter, principal);
    usage.count(principal.keyId, 'GET /api/fun/quote');
    const { headers, body } = quoteAnswer(list);
    ctx.set('X-Request-Id', headers['X-Request-Id']);
    ctx.set('Access-Control-Allow-Origin', headers['Access-Control-Allow-Origin']);
    ctx.set('Access-Control-Expose-Headers', headers['Access-Control-Expose-Headers']);
    ctx.body = body;
  });
  return http.createServer(app.callback());
}

/** The same answer straight from node:http: what a JSON endpoint costs without Koa's per-request machinery. */
function nodeJsonServer(): http.Server {
  const list = quotes();
  return http.createServer((_req, res) => {
    const { headers, body } = quoteAnswer(list);
    const text = JSON.stringify(body);
    res.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  });
}

const nodeServer = () => http.createServer((_req, res) => res.end('Hello World'));

export function start(kind: string | undefined): { server: http.Server; info: Record<string, unknown> } {
  switch (kind) {
    case 'engine':
      return engineServer();
    case 'koa':
      return { server: koaServer(), info: {} };
    case 'koa-json':
      return { server: koaJsonServer(), info: {} };
    case 'koa-keyed':
      return { server: koaKeyedServer(), info: {} };
    case 'node-http':
      return { server: nodeServer(), info: {} };
    case 'node-json':
      return { server: nodeJsonServer(), info: {} };
    default:
      throw new Error(`unknown target "${kind}" (engine, koa, koa-json, koa-keyed, node-http, node-json)`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { server, info } = start(process.argv[2]);
  server.keepAliveTimeout = 60_000;
  // run.ts asks for the CPU time used so far: CPU per request holds up on a busy machine, where requests/s does not
  process.on('message', () => process.send!(process.cpuUsage()));
  // exit normally on a signal, so `node --cpu-prof` writes its profile
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(0));
  server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port, ...info })));
}

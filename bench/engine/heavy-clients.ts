/**
 * /api/fun/quote's latency while four clients keep the server busy with heavy work, and
 * without them, in one run (issue 21's floor: "quote p99 under four heavy clients").
 *
 *   node --import tsx bench/engine/heavy-clients.ts [--tree HEAD | --dir DIR] [--base-dir DIR] [--rounds 3] [--seconds 10] [--rate 200]
 *
 * The server is a built commit (`--tree`, default HEAD, in a git worktree: ../memory/base-tree.ts;
 * or `--dir`, a checkout already built with `npm run build`) started as `npm start` starts it
 * (../memory/server.ts); `--base-dir` adds another built checkout to the same rounds. Quotes arrive at a fixed rate
 * (autocannon, `--rate` requests/s over 4 connections), so the latency is what a bot's user
 * waits, not a queue the bench itself builds. Each round has two phases of `--seconds` in
 * turns (alone then loaded, loaded then alone, …): the quotes alone, and the quotes while
 * four clients each send heavy requests back to back — issue 21's mix of heavy work from
 * ../memory/mix.ts (code-pool tools, text and photo effects, OCR; every effect with a new
 * text or new photo bytes, so nothing is answered from the render cache), each client
 * starting at another place in it. The figures are the medians of the rounds' p50, p99 and
 * max latency, with the p99's spread, how many heavy requests were answered, and the server's
 * own event-loop delay (p99, from its /metrics): a quote waits either for a core (the machine's
 * load, the server's own worker threads) or for the main thread (work blocking it).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { baseTree } from '../memory/base-tree.js';
import { fetchArgs, loadMix, type MixRequest } from '../memory/mix.js';
import { startBuilt, type Running } from '../memory/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const TREE = option('tree') ?? 'HEAD';
const DIR = option('dir');
const BASE_DIR = option('base-dir');
const ROUNDS = Number(option('rounds') ?? 3);
const SECONDS = Number(option('seconds') ?? 10);
const RATE = Number(option('rate') ?? 200);
const HEAVY_CLIENTS = 4;
const KEY = 'manifold-test';

// a phone-sized photo; `?n=` puts a number after its end marker, so each request's bytes differ
const photo = await sharp({ create: { width: 1024, height: 768, channels: 3, background: '#6a8caf', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
  .blur(1.5)
  .jpeg({ quality: 85 })
  .toBuffer();
const files = http.createServer((req, res) => {
  const url = new URL(req.url!, 'http://files');
  const [, first, second] = url.pathname.split('/');
  const data = second
    ? fs.readFileSync(path.join(ROOT, 'endpoints', first, 'fixtures', path.basename(second)))
    : Buffer.concat([photo, Buffer.from(url.searchParams.get('n') ?? '')]);
  res.writeHead(200).end(data);
});
await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

const git = (dir: string) => execFileSync('git', ['-C', dir, 'rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
const { dir, commit } = DIR ? { dir: path.resolve(DIR), commit: git(DIR) } : baseTree(ROOT, TREE);
const steps = loadMix(dir, { url: (name) => `${base}/${name}`, category: (p) => `${base}/${p.split('/')[2]}` });
const heavy = steps.filter((s) => /code tools|effects|OCR/.test(s.name)).flatMap((s) => s.requests);
// one of each kind in turn, so every client's stream mixes them
const byKind = steps.filter((s) => /code tools|effects|OCR/.test(s.name)).map((s) => s.requests);
const mixed: MixRequest[] = Array.from({ length: Math.max(...byKind.map((k) => k.length)) }, (_, i) => byKind.map((k) => k[i % k.length])).flat();

let sent = 0;
/** A request of the mix made new: effects get a text or photo nobody asked for yet. */
function fresh(r: MixRequest): MixRequest {
  const n = ++sent;
  const params = { ...r.params };
  for (const key of ['text', 'text1']) if (typeof params[key] === 'string') params[key] = `${params[key] as string} ${n}`;
  if (typeof params.url === 'string' && params.url.endsWith('/photo.jpg')) params.url = `${params.url}?n=${n}`;
  return { ...r, params };
}

async function send(url: string, r: MixRequest): Promise<boolean> {
  try {
    const answer = await fetch(...fetchArgs(url, r, KEY));
    await answer.arrayBuffer();
    return answer.ok;
  } catch {
    return false;
  }
}

interface Phase {
  p50: number;
  p99: number;
  max: number;
  quotes: number;
  errors: number;
  heavyOk: number;
  heavyFailed: number;
  /** The server's main-thread event-loop delay over the phase, p99 (its /metrics: prom-client resets it at each scrape). */
  loopP99: number;
}

async function loopLagP99(url: string): Promise<number> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const m = /^nodejs_eventloop_lag_p99_seconds ([0-9.e+-]+)$/m.exec(metrics);
  return m ? Math.round(Number(m[1]) * 1000) : NaN;
}

async function phase(url: string, loaded: boolean): Promise<Phase> {
  let running = loaded;
  let heavyOk = 0;
  let heavyFailed = 0;
  const client = async (k: number) => {
    for (let i = k * Math.floor(mixed.length / HEAVY_CLIENTS); running; i++) {
      if (await send(url, fresh(mixed[i % mixed.length]))) heavyOk++;
      else heavyFailed++;
    }
  };
  const clients = loaded ? Array.from({ length: HEAVY_CLIENTS }, (_, k) => client(k)) : [];
  if (loaded) await new Promise((resolve) => setTimeout(resolve, 1000)); // the heavy work under way first
  await loopLagP99(url); // starts the phase's event-loop histogram afresh
  const result = await autocannon({
    url: `${url}/api/fun/quote`,
    headers: { 'x-api-key': KEY },
    connections: 4,
    overallRate: RATE,
    duration: SECONDS,
  });
  const loopP99 = await loopLagP99(url);
  running = false;
  await Promise.all(clients);
  return {
    loopP99,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    quotes: result.requests.total,
    errors: result.errors + result.non2xx,
    heavyOk,
    heavyFailed,
  };
}

const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
console.log(
  `# ${commit}${BASE_DIR ? ` and ${git(BASE_DIR)} (--base-dir)` : ''}; ${os.cpus().length} cores, load average ${load()}; ${ROUNDS} rounds of ${SECONDS} s per phase, quotes at ${RATE}/s`,
);
interface Server {
  name: string;
  running: Running;
  alone: Phase[];
  loaded: Phase[];
}
const servers: Server[] = [{ name: commit, running: await startBuilt(dir, {}), alone: [], loaded: [] }];
if (BASE_DIR) servers.push({ name: git(BASE_DIR), running: await startBuilt(path.resolve(BASE_DIR), {}), alone: [], loaded: [] });
try {
  for (const { running } of servers) {
    // warm: the pools' workers, the OCR worker, fonts and every handler the mix reaches once
    await Promise.all(Array.from({ length: HEAVY_CLIENTS }, (_, k) => Promise.all(heavy.slice(k * 3, k * 3 + 3).map((r) => send(running.url, fresh(r))))));
  }
  for (let round = 1; round <= ROUNDS; round++) {
    // alone then loaded, loaded then alone, …; with two servers, A B then B A
    const turns = servers.flatMap((server) => [false, true].map((isLoaded) => ({ server, isLoaded })));
    for (const { server, isLoaded } of round % 2 === 1 ? turns : turns.reverse()) {
      const p = await phase(server.running.url, isLoaded);
      (isLoaded ? server.loaded : server.alone).push(p);
      console.error(
        `round ${round}/${ROUNDS} ${server.name} ${isLoaded ? 'with 4 heavy clients' : 'alone'}: p50 ${p.p50} ms, p99 ${p.p99} ms, max ${p.max} ms, event loop p99 ${p.loopP99} ms, ${p.quotes} quotes (${p.errors} failed), heavy ${p.heavyOk} ok / ${p.heavyFailed} failed; load ${load()}`,
      );
    }
  }
} finally {
  for (const { running } of servers) await running.stop();
  files.close();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const row = (name: string, ps: Phase[]) => {
  const p99s = ps.map((p) => p.p99);
  const sum = (f: (p: Phase) => number) => ps.reduce((a, p) => a + f(p), 0);
  return `| ${name} | ${median(ps.map((p) => p.p50))} | ${median(p99s)} (${Math.min(...p99s)}–${Math.max(...p99s)}) | ${median(ps.map((p) => p.max))} | ${sum((p) => p.quotes)} (${sum((p) => p.errors)} failed) | ${sum((p) => p.heavyOk)} ok, ${sum((p) => p.heavyFailed)} failed | ${median(ps.map((p) => p.loopP99))} |`;
};
console.log(
  `| /api/fun/quote at ${RATE}/s | p50 ms | p99 ms (spread) | max ms | quotes | heavy requests | server event-loop delay p99 ms |\n|---|---:|---:|---:|---:|---:|---:|`,
);
for (const server of servers) {
  console.log(row(`${server.name}, alone`, server.alone));
  console.log(row(`${server.name}, with ${HEAVY_CLIENTS} heavy clients`, server.loaded));
}
console.log(`# load average at the end ${load()}`);

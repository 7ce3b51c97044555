import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { EndpointRouter } from '../../engine/catalog/router.js';
import { BENCH_KEY, FIRST_PATH, LAST_PATH, REGISTRY_SIZE, paddedEndpoints } from './servers.js';

/**
 * npm run bench:engine [-- --seconds 10 --rounds 3 --connections 50 --boots 5 --out bench/engine/RESULTS.md]
 *
 * Requests/s and p99 latency of the engine's /api/fun/quote against a bare Koa and a
 * bare node:http hello-world started in the same run, and of the first against the
 * last route of a registry padded to 1,210 endpoints. Each server runs in its own
 * process; targets are measured in interleaved rounds (so a burst of load elsewhere
 * on the machine hits every target alike) and the median round is reported.
 * Also the route lookup alone, in this process (first, last, a miss); each target's
 * JavaScript cost without sockets (in-process.ts, a fresh process per target); and
 * boot time of the real registry, in fresh processes.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = option('seconds', 10);
const ROUNDS = option('rounds', 3);
const CONNECTIONS = option('connections', 50);
const BOOTS = option('boots', 5);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;

interface Target {
  name: string;
  server: 'node-http' | 'node-json' | 'koa' | 'koa-json' | 'koa-keyed' | 'engine';
  path: string;
  keyed?: boolean;
}

const TARGETS: Target[] = [
  { name: 'node:http hello-world', server: 'node-http', path: '/' },
  { name: 'Koa hello-world', server: 'koa', path: '/' },
  { name: 'Koa JSON envelope + headers (reference)', server: 'koa-json', path: '/' },
  { name: 'node:http JSON envelope + headers (reference)', server: 'node-json', path: '/' },
  { name: 'Koa JSON + key check, rate limit, usage count (reference)', server: 'koa-keyed', path: '/api/fun/quote', keyed: true },
  { name: 'engine /api/fun/quote', server: 'engine', path: '/api/fun/quote', keyed: true },
  { name: `engine first route (${FIRST_PATH})`, server: 'engine', path: FIRST_PATH, keyed: true },
  { name: `engine last route (${LAST_PATH})`, server: 'engine', path: LAST_PATH, keyed: true },
];

interface Sample {
  rps: number;
  p99: number;
  /** Server CPU time (user + system) per request, µs. */
  cpu: number;
}

type Server = { child: ChildProcess; port: number; info: Record<string, unknown> };

/** Start `servers.ts <kind>` and wait for its JSON line. */
async function startServer(kind: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'servers.ts'), kind], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const line = await firstLine(child);
  const info = JSON.parse(line) as { port: number } & Record<string, unknown>;
  return { child, port: info.port, info };
}

async function firstLine(child: ChildProcess): Promise<string> {
  const lines = readline.createInterface({ input: child.stdout! });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`child exited with ${code} before it was ready`))));
  try {
    return await Promise.race([new Promise<string>((resolve) => lines.once('line', resolve)), exited]);
  } finally {
    lines.close();
  }
}

const cpuUsage = (child: ChildProcess) =>
  new Promise<NodeJS.CpuUsage>((resolve) => {
    child.once('message', (usage) => resolve(usage as NodeJS.CpuUsage));
    child.send('cpu');
  });

async function measure(server: Server, target: Target, seconds: number): Promise<Sample> {
  const before = await cpuUsage(server.child);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${target.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    headers: target.keyed ? { 'X-API-Key': BENCH_KEY } : {},
  });
  const after = await cpuUsage(server.child);
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${target.name}: ${failed} failed requests (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts})`);
  const cpu = (after.user - before.user + after.system - before.system) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, cpu };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU µs per request of each target without sockets (in-process.ts), in a fresh process each. */
async function inProcess(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const target of TARGETS.filter((t) => t.path !== FIRST_PATH && t.path !== LAST_PATH)) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'in-process.ts'), target.server, target.path], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    out.set(target.name, (JSON.parse(await firstLine(child)) as { cpuUs: number }).cpuUs);
  }
  return out;
}

/**
 * `npm start` as users run it (scripts/start.mjs, the built JavaScript), a fresh process
 * each time: its `listening` line says how long it took from the process's start.
 */
async function boots(): Promise<{ endpoints: number; available: number; bootMs: number }[]> {
  // built first: a stale build would be rebuilt inside the first measured start
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, stdio: 'ignore' });
  const out = [];
  for (let i = 0; i < BOOTS; i++) {
    const env = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_REQUESTS: '0', DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-boot-')) };
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    out.push(JSON.parse(await firstLine(child)));
    child.kill();
  }
  return out;
}

/** The first GET /openapi.json's cost, in a fresh process. */
async function openApiCost(): Promise<Record<string, number>> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'openapi-document.ts')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return JSON.parse(await firstLine(child));
}

/**
 * Nanoseconds per EndpointRouter.match() for the first and last registered route and
 * for a path no endpoint has (a 404 falls back to the scan of parameterised routes).
 * Without the network and the rest of the pipeline, this shows whether lookup cost
 * depends on where a route was registered.
 */
function routeLookup(): Record<string, number> {
  const router = new EndpointRouter(paddedEndpoints().endpoints);
  const paths = { first: FIRST_PATH, last: LAST_PATH, miss: '/api/bench/no-such-endpoint' };
  const timings: Record<string, number[]> = { first: [], last: [], miss: [] };
  const n = 200_000;
  for (let rep = 0; rep < 7; rep++) {
    for (const [name, p] of Object.entries(paths)) {
      // CPU time, not wall-clock: on a shared machine the process is not always running
      const before = process.cpuUsage();
      for (let i = 0; i < n; i++) router.match('GET', p);
      const used = process.cpuUsage(before);
      timings[name].push(((used.user + used.system) * 1000) / n);
    }
  }
  // the first repetition warms the JIT up
  return Object.fromEntries(Object.entries(timings).map(([name, ns]) => [name, median(ns.slice(1))]));
}

/** Hand-written analysis below this line of an existing results file survives a new run. */
const NOTES_MARKER = '<!-- notes: kept when the figures above are regenerated -->';

function keptNotes(file: string): string {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const at = text.indexOf(NOTES_MARKER);
  return at >= 0 ? `\n${text.slice(at)}` : '';
}

const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;

async function main() {
  const load = os.loadavg();
  // the two that read the endpoints dir first: the HTTP rounds then need nothing more from it
  const lookup = routeLookup();
  const boot = await boots();
  const openapi = await openApiCost();
  const js = await inProcess();
  const servers = new Map<string, Server>();
  try {
    for (const kind of new Set(TARGETS.map((t) => t.server))) servers.set(kind, await startServer(kind));
    const engineInfo = servers.get('engine')!.info;
    const samples = new Map<string, Sample[]>(TARGETS.map((t) => [t.name, []]));
    for (const target of TARGETS) await measure(servers.get(target.server)!, target, 2); // warm-up (JIT, caches)
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of TARGETS) {
        const sample = await measure(servers.get(target.server)!, target, SECONDS);
        samples.get(target.name)!.push(sample);
        console.error(
          `round ${round}/${ROUNDS} ${target.name}: ${Math.round(sample.rps)} req/s, p99 ${sample.p99} ms, ${sample.cpu.toFixed(0)} µs CPU/request`,
        );
      }
    }
    const loadAfter = os.loadavg();

    const rps = (name: string) => median(samples.get(name)!.map((s) => s.rps));
    const p99 = (name: string) => median(samples.get(name)!.map((s) => s.p99));
    const cpu = (name: string) => median(samples.get(name)!.map((s) => s.cpu));
    // ratios are taken within each round (neighbouring measurements see similar load elsewhere), then the median
    const roundRatio = (a: string, b: string, of: (s: Sample) => number) => median(samples.get(a)!.map((s, i) => of(s) / of(samples.get(b)![i])));
    const ratioRow = (label: string, a: string, b: string, target = '—') =>
      `| ${label} | ${(roundRatio(a, b, (s) => s.rps) * 100).toFixed(1)}% | ${(100 / roundRatio(a, b, (s) => s.cpu)).toFixed(1)}% | ${target} |`;
    const [nodeName, koaName, koaJsonName, nodeJsonName, keyedName, quoteName, firstName, lastName] = TARGETS.map((t) => t.name);
    const lines = [
      `# Engine benchmark`,
      ``,
      `Generated by \`npm run bench:engine\` on ${new Date().toISOString()}.`,
      ``,
      `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
      `- Load average (1/5/15 min) at start ${load.map((l) => l.toFixed(2)).join(' / ')}, at end ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}`,
      `- autocannon: ${CONNECTIONS} connections, ${SECONDS} s per target per round, ${ROUNDS} interleaved rounds (median shown), after a 2 s warm-up; each server in its own process`,
      `- Engine: ${engineInfo.registered} registered endpoints (the ${engineInfo.real} real ones, /api/fun/quote clones registered first and last, padded with more clones to at least ${REGISTRY_SIZE}), LOG_REQUESTS=0, key in X-API-Key, rate limit out of reach`,
      ``,
      `| target | requests/s | p99 latency ms | server CPU µs/request | requests/s per round |`,
      `|---|---:|---:|---:|---|`,
      ...TARGETS.map(
        (t) =>
          `| ${t.name} | ${Math.round(rps(t.name))} | ${p99(t.name)} | ${cpu(t.name).toFixed(0)} | ${samples
            .get(t.name)!
            .map((s) => Math.round(s.rps))
            .join(', ')} |`,
      ),
      ``,
      `Ratios (median of the per-round ratios) by requests/s, and by server CPU per request (the throughput a saturated core would give; steadier when other work shares the machine):`,
      ``,
      `| ratio | by requests/s | by CPU/request | target |`,
      `|---|---:|---:|---|`,
      ratioRow('engine /api/fun/quote vs Koa hello-world', quoteName, koaName, '≥ 85%'),
      ratioRow('engine /api/fun/quote vs node:http hello-world', quoteName, nodeName),
      ratioRow('Koa vs node:http', koaName, nodeName),
      ratioRow('Koa JSON envelope + headers vs Koa hello-world (ceiling for any JSON endpoint)', koaJsonName, koaName),
      ratioRow('engine /api/fun/quote vs Koa JSON envelope + headers', quoteName, koaJsonName),
      ratioRow('node:http JSON envelope + headers vs Koa hello-world (the same answer without Koa)', nodeJsonName, koaName),
      ratioRow('Koa JSON + key check, rate limit, usage count vs Koa JSON envelope + headers (what the keyed work alone costs)', keyedName, koaJsonName),
      ratioRow('engine /api/fun/quote vs Koa JSON + key check, rate limit, usage count (what the registry machinery costs)', quoteName, keyedName),
      ratioRow(`last route vs first route (${engineInfo.registered} registered)`, lastName, firstName, 'within 5%'),
      ``,
      `Route lookup alone (EndpointRouter.match, in process, CPU ns per call, median of 6 × 200,000): first ${lookup.first.toFixed(0)} ns, last ${lookup.last.toFixed(0)} ns ` +
        `(last vs first ${pct(lookup.first, lookup.last)}), a path with no endpoint ${lookup.miss.toFixed(0)} ns.`,
      ``,
      `Without sockets (bench/engine/in-process.ts: requests handed straight to the server's request listener, 50 in flight, responses discarded; CPU µs per request, median of 10 rounds of 5,000). ` +
        `The difference to the HTTP rows is what TCP on loopback, the HTTP parser and syscalls add, plus what the server's own code costs more when it runs between them with cold caches (it grows with the code a request runs):`,
      ``,
      `| target | CPU µs/request without sockets | with sockets (table above) |`,
      `|---|---:|---:|`,
      ...[...js].map(([name, us]) => `| ${name} | ${us.toFixed(1)} | ${cpu(name).toFixed(0)} |`),
      ``,
      `Boot with the real registry: \`npm start\` (scripts/start.mjs, the built JavaScript), a fresh process and DATA_DIR each, ${BOOTS} runs; ms from the process's start to listening (target < 1,000):`,
      ``,
      `| endpoints | available | median | fastest | slowest |`,
      `|---:|---:|---:|---:|---:|`,
      `| ${boot[0].endpoints} | ${boot[0].available} | ${median(boot.map((b) => b.bootMs)).toFixed(0)} | ${Math.min(...boot.map((b) => b.bootMs))} | ${Math.max(...boot.map((b) => b.bootMs))} |`,
      ``,
      `First GET /openapi.json (built once, then served from memory): ${openapi.openapiOperations} operations, built, serialised and gzipped in ` +
        `${openapi.openapiMs.toFixed(0)} ms; ${(openapi.openapiBytes / 2 ** 20).toFixed(1)} MiB, ${(openapi.openapiGzipBytes / 2 ** 10).toFixed(0)} KiB gzipped (/docs shows one category's document at a time).`,
      ``,
    ];
    const report = lines.join('\n');
    console.log(report);
    if (OUT) fs.writeFileSync(path.resolve(ROOT, OUT), report + keptNotes(path.resolve(ROOT, OUT)));
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
}

await main();

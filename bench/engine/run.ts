import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { EndpointRouter } from '../../engine/catalog/router.js';
import { baseTree, build as buildTree } from '../memory/base-tree.js';
import { BENCH_KEY, FIRST_PATH, LAST_PATH, REGISTRY_SIZE, paddedEndpoints } from './servers.js';

/**
 * npm run bench:engine [-- --seconds 10 --rounds 5 --connections 50 --boots 5 --only koa-json,koa-keyed,quote --http-only --base REF --out bench/engine/RESULTS.md]
 *
 * Requests/s, p99 latency and server CPU per request of the engine's /api/fun/quote
 * against reference servers started in the same run (bare node:http and Koa hello-worlds,
 * Koa and node:http answering the same JSON, Koa doing the same keyed work), and of the
 * first against the last route of a registry padded to 1,600 endpoints. Each server runs
 * in its own process, as built JavaScript (`npm run build`, then bench/engine/*.ts
 * transpiled beside it): what `npm start` runs, not TypeScript through tsx. Targets are
 * measured in interleaved rounds (so a burst of load elsewhere on the machine hits every
 * target alike); each figure is the median of the rounds with their spread (min–max),
 * and each ratio is taken within a round. Also the route lookup alone, in this process
 * (first, last, a miss); each target's JavaScript cost without sockets (in-process.ts, a
 * fresh process per target); boot time of the real registry, in fresh processes.
 * `--only` measures some targets (ids below), `--http-only` leaves out everything but the rounds,
 * `--base REF` adds /api/fun/quote as a commit served it (built in a worktree, ../memory/base-tree.ts)
 * to the same rounds: a change's before and after under the same load.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SECONDS = option('seconds', 10);
// fewer than five rounds make the median and its spread say little on a shared machine
const ROUNDS = Math.max(5, option('rounds', 5));
const CONNECTIONS = option('connections', 50);
const BOOTS = option('boots', 5);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const ONLY = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
const HTTP_ONLY = args.includes('--http-only');
const BASE = args.includes('--base') ? args[args.indexOf('--base') + 1] : undefined;
/** The keyed reference's CPU per request times this is the most the engine's /api/fun/quote may use (issue 21). */
const KEYED_CPU_LIMIT = 1.2;

interface Target {
  id: string;
  name: string;
  server: 'node-http' | 'node-json' | 'koa' | 'koa-json' | 'koa-keyed' | 'engine';
  path: string;
  keyed?: boolean;
  /** Served by the `--base` commit's build, not this tree's. */
  base?: boolean;
}

const ALL_TARGETS: Target[] = [
  { id: 'node-http', name: 'node:http hello-world', server: 'node-http', path: '/' },
  { id: 'koa', name: 'Koa hello-world', server: 'koa', path: '/' },
  { id: 'koa-json', name: 'Koa JSON envelope + headers (reference)', server: 'koa-json', path: '/' },
  { id: 'node-json', name: 'node:http JSON envelope + headers (reference)', server: 'node-json', path: '/' },
  { id: 'koa-keyed', name: 'Koa JSON + key check, rate limit, usage count (reference)', server: 'koa-keyed', path: '/api/fun/quote', keyed: true },
  { id: 'quote', name: 'engine /api/fun/quote', server: 'engine', path: '/api/fun/quote', keyed: true },
  { id: 'first', name: `engine first route (${FIRST_PATH})`, server: 'engine', path: FIRST_PATH, keyed: true },
  { id: 'last', name: `engine last route (${LAST_PATH})`, server: 'engine', path: LAST_PATH, keyed: true },
];
if (BASE)
  ALL_TARGETS.push({ id: 'quote-base', name: `engine /api/fun/quote at ${BASE} (--base)`, server: 'engine', path: '/api/fun/quote', keyed: true, base: true });
const TARGETS = ONLY ? ALL_TARGETS.filter((t) => ONLY.has(t.id) || t.base) : ALL_TARGETS;
if (ONLY && TARGETS.filter((t) => !t.base).length !== ONLY.size) throw new Error(`--only takes target ids among: ${ALL_TARGETS.map((t) => t.id).join(', ')}`);
/** The process serving a target: one per server kind and tree. */
const processOf = (t: Target) => (t.base ? `${t.server}@base` : t.server);

interface Sample {
  rps: number;
  p99: number;
  /** Server CPU time (user + system) per request, µs. */
  cpu: number;
}

type Server = { child: ChildProcess; port: number; info: Record<string, unknown> };

/** Where the bench's server files are transpiled: beside build/engine, so their `../../engine/` imports reach the built engine. */
const BUILT = path.join(ROOT, 'build', 'bench', 'engine');

/**
 * The engine as `npm run build` makes it, and servers.ts and in-process.ts transpiled the
 * same way: every target then runs plain JavaScript, as `npm start` does (tsx would wrap
 * each function made per request in a naming helper the built engine does not have).
 * A `--base` tree gets this tree's server files, which then import its built engine.
 */
async function buildServers(root: string): Promise<void> {
  buildTree(root);
  const entryPoints = ['servers.ts', 'in-process.ts'].map((f) => path.join(HERE, f));
  await build({ entryPoints, outdir: path.join(root, path.relative(ROOT, BUILT)), format: 'esm', platform: 'node', target: 'node20.10', logLevel: 'warning' });
}

/** Start `servers.ts <kind>` (built, in `root`) and wait for its JSON line. */
async function startServer(kind: string, root = ROOT): Promise<Server> {
  const built = path.join(root, path.relative(ROOT, BUILT), 'servers.js');
  const child = spawn(process.execPath, [built, kind], { cwd: root, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
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
  for (const target of TARGETS.filter((t) => t.path !== FIRST_PATH && t.path !== LAST_PATH && !t.base)) {
    const child = spawn(process.execPath, [path.join(BUILT, 'in-process.js'), target.server, target.path], {
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
  // built first (main): a stale build would be rebuilt inside the first measured start
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

/** The median of the values, then their spread: `12.3 (10.1–15.0)`. */
const spread = (values: number[], format: (x: number) => string) => `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

/** Interleaved rounds over every target: samples by target id, in round order. */
async function rounds(servers: Map<string, Server>): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(TARGETS.map((t) => [t.id, []]));
  for (const target of TARGETS) await measure(servers.get(processOf(target))!, target, 2); // warm-up (JIT, caches)
  for (let round = 1; round <= ROUNDS; round++) {
    for (const target of TARGETS) {
      const sample = await measure(servers.get(processOf(target))!, target, SECONDS);
      samples.get(target.id)!.push(sample);
      console.error(`round ${round}/${ROUNDS} ${target.name}: ${Math.round(sample.rps)} req/s, p99 ${sample.p99} ms, ${sample.cpu.toFixed(1)} µs CPU/request`);
    }
  }
  return samples;
}

/** The rounds' table, the ratios between targets (each taken within a round) and the verdict on the keyed reference. */
function httpReport(samples: Map<string, Sample[]>, engineInfo: Record<string, unknown> | undefined): string[] {
  const of = (id: string) => samples.get(id);
  const name = (id: string) => ALL_TARGETS.find((t) => t.id === id)!.name;
  // a ÷ b of one figure, round by round (neighbouring measurements see similar load elsewhere)
  const perRound = (a: string, b: string, figure: (s: Sample) => number) => of(a)!.map((s, i) => figure(s) / figure(of(b)![i]));
  const ratioRow = (label: string, a: string, b: string, target = '—') =>
    of(a) && of(b)
      ? [
          `| ${label} | ${spread(
            perRound(a, b, (s) => s.rps),
            (x) => `${(x * 100).toFixed(1)}%`,
          )} | ${spread(
            perRound(b, a, (s) => s.cpu),
            (x) => `${(x * 100).toFixed(1)}%`,
          )} | ${target} |`,
        ]
      : [];
  const registered = engineInfo ? ` (${engineInfo.registered} registered)` : '';
  const lines = [
    `| target | requests/s | p99 latency ms | server CPU µs/request | CPU µs/request by round |`,
    `|---|---:|---:|---:|---|`,
    ...TARGETS.map((t) => {
      const s = of(t.id)!;
      return `| ${t.name} | ${spread(
        s.map((x) => x.rps),
        (x) => x.toFixed(0),
      )} | ${median(s.map((x) => x.p99))} | ${spread(
        s.map((x) => x.cpu),
        (x) => x.toFixed(1),
      )} | ${s.map((x) => x.cpu.toFixed(1)).join(', ')} |`;
    }),
    ``,
    `Ratios, each taken within a round, as the median of the ${ROUNDS} rounds (min–max): by requests/s (a ÷ b), and by server CPU per request (b's CPU ÷ a's: the throughput a saturated core would give; steadier when other work shares the machine):`,
    ``,
    `| a vs b | by requests/s | by CPU/request | target |`,
    `|---|---:|---:|---|`,
    ...ratioRow('engine /api/fun/quote vs Koa hello-world', 'quote', 'koa'),
    ...ratioRow('engine /api/fun/quote vs node:http hello-world', 'quote', 'node-http'),
    ...ratioRow('Koa vs node:http', 'koa', 'node-http'),
    ...ratioRow('Koa JSON envelope + headers vs Koa hello-world (ceiling for any JSON endpoint)', 'koa-json', 'koa'),
    ...ratioRow('engine /api/fun/quote vs Koa JSON envelope + headers', 'quote', 'koa-json'),
    ...ratioRow('node:http JSON envelope + headers vs Koa hello-world (the same answer without Koa)', 'node-json', 'koa'),
    ...ratioRow('Koa JSON + key check, rate limit, usage count vs Koa JSON envelope + headers (what the keyed work alone costs)', 'koa-keyed', 'koa-json'),
    ...ratioRow(
      'engine /api/fun/quote vs Koa JSON + key check, rate limit, usage count (what the registry machinery costs)',
      'quote',
      'koa-keyed',
      `≥ ${((1 / KEYED_CPU_LIMIT) * 100).toFixed(1)}% by CPU (≤ ${KEYED_CPU_LIMIT}×)`,
    ),
    ...ratioRow(`last route vs first route${registered}`, 'last', 'first', 'within 5%'),
    ...ratioRow(`engine /api/fun/quote vs the same at ${BASE} (what the change does)`, 'quote', 'quote-base'),
    ...ratioRow(`engine /api/fun/quote at ${BASE} vs Koa JSON + key check, rate limit, usage count`, 'quote-base', 'koa-keyed'),
  ];
  for (const [id, which] of [
    ['quote', 'Engine'],
    ['quote-base', `Engine at ${BASE}`],
  ]) {
    if (!of(id) || !of('koa-keyed')) continue;
    const times = perRound(id, 'koa-keyed', (s) => s.cpu);
    const met = median(times) <= KEYED_CPU_LIMIT;
    lines.push(
      ``,
      `**${which} vs the keyed reference by CPU per request: ${spread(times, (x) => `${x.toFixed(2)}×`)}** over ${ROUNDS} rounds (target ≤ ${KEYED_CPU_LIMIT}×: ${met ? 'met' : 'NOT met'}).`,
    );
  }
  return lines;
}

async function main() {
  const load = os.loadavg();
  await buildServers(ROOT);
  const base = BASE ? baseTree(ROOT, BASE) : undefined;
  if (base) await buildServers(base.dir);
  // the extras read the endpoints dir and start processes: before the HTTP rounds, which then run undisturbed
  const lookup = HTTP_ONLY ? undefined : routeLookup();
  const boot = HTTP_ONLY ? undefined : await boots();
  const openapi = HTTP_ONLY ? undefined : await openApiCost();
  const js = HTTP_ONLY ? undefined : await inProcess();
  const servers = new Map<string, Server>();
  try {
    for (const target of TARGETS)
      if (!servers.has(processOf(target))) servers.set(processOf(target), await startServer(target.server, target.base ? base!.dir : ROOT));
    const engineInfo = servers.get('engine')?.info;
    const samples = await rounds(servers);
    const loadAfter = os.loadavg();
    const cpu = (name: string) => median(samples.get(TARGETS.find((t) => t.name === name)!.id)!.map((s) => s.cpu));
    const lines = [
      `# Engine benchmark`,
      ``,
      `Generated by \`npm run bench:engine\` on ${new Date().toISOString()}.`,
      ``,
      `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
      `- Load average (1/5/15 min) at start ${load.map((l) => l.toFixed(2)).join(' / ')}, at end ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}`,
      `- autocannon: ${CONNECTIONS} connections, ${SECONDS} s per target per round, ${ROUNDS} interleaved rounds, after a 2 s warm-up; each server in its own process, built JavaScript (as \`npm start\` runs)`,
      `- Figures: the median of the rounds, then their spread (min–max). Server CPU is user + system time of the server's process over the round, per request answered.`,
      ...(base ? [`- \`--base ${BASE}\`: commit ${base.commit}, built in ${base.dir} with this tree's node_modules and bench servers`] : []),
      ...(engineInfo
        ? [
            `- Engine: ${engineInfo.registered} registered endpoints (the ${engineInfo.real} real ones, /api/fun/quote clones registered first and last, padded with more clones to at least ${REGISTRY_SIZE}), LOG_REQUESTS=0, key in X-API-Key, rate limit out of reach`,
          ]
        : []),
      ``,
      ...httpReport(samples, engineInfo),
      ``,
    ];
    if (lookup && boot && openapi && js) {
      lines.push(
        `Route lookup alone (EndpointRouter.match, in process, CPU ns per call, median of 6 × 200,000): first ${lookup.first.toFixed(0)} ns, last ${lookup.last.toFixed(0)} ns ` +
          `(last vs first ${pct(lookup.first, lookup.last)}), a path with no endpoint ${lookup.miss.toFixed(0)} ns.`,
        ``,
        `Without sockets (bench/engine/in-process.ts: requests handed straight to the server's request listener, 50 in flight, responses discarded; CPU µs per request, median of 10 rounds of 5,000). ` +
          `The difference to the HTTP rows is what TCP on loopback, the HTTP parser and syscalls add, plus what the server's own code costs more when it runs between them with cold caches (it grows with the code a request runs):`,
        ``,
        `| target | CPU µs/request without sockets | with sockets (median, table above) |`,
        `|---|---:|---:|`,
        ...[...js].map(([name, us]) => `| ${name} | ${us.toFixed(1)} | ${cpu(name).toFixed(1)} |`),
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
      );
    }
    const report = lines.join('\n');
    console.log(report);
    if (OUT) fs.writeFileSync(path.resolve(ROOT, OUT), report + keptNotes(path.resolve(ROOT, OUT)));
  } finally {
    for (const { child } of servers.values()) child.kill();
  }
}

await main();

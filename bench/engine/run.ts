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
 * npm run bench:engine [-- --seconds 10 --slice 1 --rounds 5 --connections 50 --boots 5 --only koa-json,koa-keyed,quote --http-only | --js-only --base REF --out bench/engine/RESULTS.md]
 *
 * Requests/s, p99 latency and server CPU per request of the engine's /api/fun/quote
 * against reference servers started in the same run (bare node:http and Koa hello-worlds,
 * Koa and node:http answering the same JSON, Koa doing the same keyed work), and of the
 * first against the last route of a registry padded to 1,600 endpoints. Each server runs
 * in its own process, as built JavaScript (`npm run build`, then bench/engine/*.ts
 * transpiled beside it): what `npm start` runs, not TypeScript through tsx. Targets are
 * measured in rounds, each from freshly started servers, the targets taking turns in slices
 * of `--slice` seconds (so a burst of load elsewhere on the machine hits every target alike);
 * each figure is the median of the rounds with their spread (min–max), and each ratio is
 * taken within a round. Also each target's JavaScript cost without sockets (in-process.ts),
 * in rounds built the same way; the route lookup alone, in this process (first, last, a
 * miss); boot time of the real registry, in fresh processes.
 * `--only` measures some targets (ids below), `--http-only` leaves out everything but the HTTP rounds,
 * `--js-only` everything but the rounds without sockets (two minutes, and steadier on a busy machine),
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
// each round's seconds per target are split into slices taken in turns (A B C, C B A, …): a burst of
// load elsewhere on the shared machine then falls on every target of the round alike, not on one
const SLICE = option('slice', 1);
// fewer than five rounds make the median and its spread say little on a shared machine
const ROUNDS = Math.max(5, option('rounds', 5));
const CONNECTIONS = option('connections', 50);
const BOOTS = option('boots', 5);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1] : undefined;
const ONLY = args.includes('--only') ? new Set(args[args.indexOf('--only') + 1].split(',')) : undefined;
const HTTP_ONLY = args.includes('--http-only');
const JS_ONLY = args.includes('--js-only');
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

/** What one slice of autocannon measured: summed over a round's slices into a Sample. */
interface Slice {
  requests: number;
  seconds: number;
  p99: number;
  /** Server CPU time (user + system) over the slice, µs. */
  cpuUs: number;
}

type Server = { child: ChildProcess; port: number; info: Record<string, unknown> };

/** Where the bench's server files are transpiled: beside build/engine, so their `../../engine/` imports reach the built engine. */
const BUILT = path.join(ROOT, 'build', 'bench', 'engine');

/**
 * The engine as `npm run build` makes it, and servers.ts and in-process.ts transpiled the
 * same way: every target then runs plain JavaScript, as `npm start` does (tsx would wrap
 * each function made per request in a naming helper the built engine does not have).
 * A `--base` tree's servers are its own servers.ts (they call its engine's functions as
 * that commit has them), driven by this tree's in-process.ts.
 */
async function buildServers(root: string): Promise<void> {
  buildTree(root);
  const outdir = path.join(root, path.relative(ROOT, BUILT));
  const own = path.join(root, 'bench', 'engine', 'servers.ts');
  const entries = [fs.existsSync(own) ? own : path.join(HERE, 'servers.ts'), path.join(HERE, 'in-process.ts')];
  for (const entry of entries)
    await build({
      entryPoints: [entry],
      outfile: path.join(outdir, path.basename(entry, '.ts') + '.js'),
      format: 'esm',
      platform: 'node',
      target: 'node20.10',
      logLevel: 'warning',
    });
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

async function measure(server: Server, target: Target, seconds: number): Promise<Slice> {
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
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99, cpuUs: after.user - before.user + after.system - before.system };
}

/** A round's slices of one target as one sample: CPU and requests summed, so a slice counts by the requests it served. */
function sampleOf(slices: Slice[]): Sample {
  const requests = slices.reduce((n, s) => n + s.requests, 0);
  const seconds = slices.reduce((n, s) => n + s.seconds, 0);
  const cpuUs = slices.reduce((n, s) => n + s.cpuUs, 0);
  return { rps: requests / seconds, p99: median(slices.map((s) => s.p99)), cpu: cpuUs / requests };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Requests per turn of a target without sockets, turns per round, and the turns of warm-up first. */
const IN_PROCESS_TURN = 5000;
const IN_PROCESS_TURNS = 20;
const IN_PROCESS_WARM_UP = 4;

/**
 * CPU µs per request of each target without sockets (in-process.ts), by target id, one figure
 * per round: a fresh process per target each round, the targets taking turns of IN_PROCESS_TURN
 * requests as in the HTTP rounds, each round's figure averaged over its turns.
 */
async function inProcess(base: string | undefined): Promise<Map<string, number[]>> {
  const targets = TARGETS.filter((t) => t.path !== FIRST_PATH && t.path !== LAST_PATH);
  const children = new Map<string, ChildProcess>();
  const stop = () => {
    for (const child of children.values()) child.kill();
    children.clear();
  };
  const turn = (id: string) =>
    new Promise<number>((resolve) => {
      const child = children.get(id)!;
      child.once('message', (m) => resolve((m as { cpuUs: number }).cpuUs));
      child.send({ requests: IN_PROCESS_TURN });
    });
  try {
    const out = new Map<string, number[]>(targets.map((t) => [t.id, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // fresh processes each round, as in the HTTP rounds: a process's JIT and heap state is part of the sample
      stop();
      for (const target of targets) {
        const root = target.base ? base! : ROOT;
        const child = spawn(process.execPath, [path.join(root, path.relative(ROOT, BUILT), 'in-process.js'), target.server, target.path], {
          cwd: root,
          stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
        });
        children.set(target.id, child);
        await firstLine(child);
      }
      for (let i = 0; i < IN_PROCESS_WARM_UP; i++) for (const t of targets) await turn(t.id);
      const sums = new Map<string, number>(targets.map((t) => [t.id, 0]));
      for (let pass = 0; pass < IN_PROCESS_TURNS; pass++)
        for (const t of pass % 2 ? [...targets].reverse() : targets) sums.set(t.id, sums.get(t.id)! + (await turn(t.id)));
      for (const t of targets) out.get(t.id)!.push(sums.get(t.id)! / IN_PROCESS_TURNS);
    }
    return out;
  } finally {
    stop();
  }
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
    // others may edit engine/ meanwhile (a shared tree): built now, so the start does not rebuild inside its measured time
    buildTree(ROOT);
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      out.push(await listeningLine(child));
    } finally {
      child.kill();
    }
  }
  return out;
}

/** The server's `listening` log line (JSON with bootMs); a line before it (the build's, a warning) is passed over. */
async function listeningLine(child: ChildProcess): Promise<{ endpoints: number; available: number; bootMs: number }> {
  const lines = readline.createInterface({ input: child.stdout! });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`npm start exited with ${code} before listening`))));
  const listening = new Promise<{ endpoints: number; available: number; bootMs: number }>((resolve) =>
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { bootMs?: number };
      if (entry.bootMs !== undefined) resolve(entry as { endpoints: number; available: number; bootMs: number });
    }),
  );
  try {
    return await Promise.race([listening, exited]);
  } finally {
    lines.close();
  }
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

/**
 * Interleaved rounds over every target: samples by target id, in round order. A round gives
 * each target SECONDS in slices of SLICE seconds, the targets taking turns slice by slice,
 * every other pass in reverse order (so a drift in the machine's load over a pass weighs on
 * first and last alike).
 */
async function rounds(servers: Map<string, Server>, restart: () => Promise<void>): Promise<Map<string, Sample[]>> {
  const samples = new Map<string, Sample[]>(TARGETS.map((t) => [t.id, []]));
  const passes = Math.max(1, Math.round(SECONDS / SLICE));
  for (let round = 1; round <= ROUNDS; round++) {
    // fresh processes each round: identical servers settle into states that differ by up to ~1.4x in CPU per
    // request over HTTP for their whole life (measured: four engine processes side by side, 56-75 µs), so
    // one process per target for every round would make its luck the result; the median of the rounds spans it
    await restart();
    for (const target of TARGETS) await measure(servers.get(processOf(target))!, target, 3); // warm-up (JIT, caches)
    const slices = new Map<string, Slice[]>(TARGETS.map((t) => [t.id, []]));
    for (let pass = 0; pass < passes; pass++)
      for (const target of pass % 2 ? [...TARGETS].reverse() : TARGETS)
        slices.get(target.id)!.push(await measure(servers.get(processOf(target))!, target, SECONDS / passes));
    for (const target of TARGETS) {
      const sample = sampleOf(slices.get(target.id)!);
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
  if (of('koa-keyed')) lines.push(...verdicts((id) => of(id)?.map((s) => s.cpu), 'over HTTP'));
  return lines;
}

/** The engine's (and the base commit's) CPU per request over the keyed reference's, round by round, with the 1.2× verdict. */
function verdicts(cpuOf: (id: string) => number[] | undefined, how: string): string[] {
  const lines: string[] = [];
  const keyed = cpuOf('koa-keyed');
  for (const [id, which] of [
    ['quote', 'Engine'],
    ['quote-base', `Engine at ${BASE}`],
  ]) {
    const engine = cpuOf(id);
    if (!engine || !keyed) continue;
    const times = engine.map((us, i) => us / keyed[i]);
    const met = median(times) <= KEYED_CPU_LIMIT;
    lines.push(
      ``,
      `**${which} vs the keyed reference by CPU per request ${how}: ${spread(times, (x) => `${x.toFixed(2)}×`)}** over ${ROUNDS} rounds (target ≤ ${KEYED_CPU_LIMIT}×: ${met ? 'met' : 'NOT met'}).`,
    );
  }
  return lines;
}

/** The rounds without sockets: each target's CPU per request, the HTTP median beside it, and the verdicts. */
function inProcessReport(js: Map<string, number[]>, http: Map<string, Sample[]> | undefined): string[] {
  const withSockets = (id: string) => {
    const s = http?.get(id);
    return s ? median(s.map((x) => x.cpu)).toFixed(1) : '—';
  };
  const lines = [
    `Without sockets (bench/engine/in-process.ts: requests handed straight to the server's request listener, 50 in flight, responses discarded), ` +
      `a fresh process per target each round, ${ROUNDS} rounds, in each the targets taking ${IN_PROCESS_TURNS} turns of ${IN_PROCESS_TURN.toLocaleString('en')} requests (after ${IN_PROCESS_WARM_UP} turns of warm-up); ` +
      `CPU µs per request, the median of the rounds and their spread. This is the servers' own JavaScript: it leaves out TCP on loopback, the HTTP parser, syscalls and a client ` +
      `competing for the cores, which over HTTP make each µs of it cost several (RESULTS.md notes), so it holds still when the machine is busy:`,
    ``,
    `| target | CPU µs/request without sockets | by round | with sockets (median, table above) |`,
    `|---|---:|---|---:|`,
    ...[...js].map(
      ([id, us]) =>
        `| ${ALL_TARGETS.find((t) => t.id === id)!.name} | ${spread(us, (x) => x.toFixed(1))} | ${us.map((x) => x.toFixed(1)).join(', ')} | ${withSockets(id)} |`,
    ),
    ...verdicts((id) => js.get(id), 'without sockets'),
  ];
  const quote = js.get('quote');
  const quoteBase = js.get('quote-base');
  if (quote && quoteBase)
    lines.push(
      ``,
      `Engine at ${BASE} vs now without sockets, CPU per request: ${spread(
        quoteBase.map((us, i) => us / quote[i]),
        (x) => `${x.toFixed(2)}×`,
      )}.`,
    );
  return lines;
}

async function main() {
  const load = os.loadavg();
  await buildServers(ROOT);
  const base = BASE ? baseTree(ROOT, BASE) : undefined;
  if (base) await buildServers(base.dir);
  // the extras read the endpoints dir and start processes: before the HTTP rounds, which then run undisturbed
  const extras = !HTTP_ONLY && !JS_ONLY;
  const lookup = extras ? routeLookup() : undefined;
  const boot = extras ? await boots() : undefined;
  const openapi = extras ? await openApiCost() : undefined;
  const js = HTTP_ONLY ? undefined : await inProcess(base?.dir);
  const servers = new Map<string, Server>();
  let engineInfo: Record<string, unknown> | undefined;
  const restart = async () => {
    for (const { child } of servers.values()) child.kill();
    servers.clear();
    for (const target of TARGETS)
      if (!servers.has(processOf(target))) servers.set(processOf(target), await startServer(target.server, target.base ? base!.dir : ROOT));
    engineInfo ??= servers.get('engine')?.info;
  };
  try {
    const samples = JS_ONLY ? undefined : await rounds(servers, restart);
    const loadAfter = os.loadavg();
    const lines = [
      `# Engine benchmark`,
      ``,
      `Generated by \`npm run bench:engine${args.length ? ` -- ${args.join(' ')}` : ''}\` on ${new Date().toISOString()}.`,
      ``,
      `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`,
      `- Load average (1/5/15 min) at start ${load.map((l) => l.toFixed(2)).join(' / ')}, at end ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}`,
      ...(samples
        ? [
            `- autocannon: ${CONNECTIONS} connections, ${SECONDS} s per target per round in slices of ${SECONDS / Math.max(1, Math.round(SECONDS / SLICE))} s taken in turns (every other pass in reverse order), ${ROUNDS} rounds; each server in its own process, started afresh for each round and warmed up for 3 s, built JavaScript (as \`npm start\` runs)`,
            `- Figures: the median of the rounds, then their spread (min–max). Server CPU is user + system time of the server's process over the round's slices, per request answered.`,
          ]
        : []),
      ...(base ? [`- \`--base ${BASE}\`: commit ${base.commit}, built in ${base.dir} with this tree's node_modules, its own bench servers`] : []),
      ...(engineInfo
        ? [
            `- Engine: ${engineInfo.registered} registered endpoints (the ${engineInfo.real} real ones, /api/fun/quote clones registered first and last, padded with more clones to at least ${REGISTRY_SIZE}), LOG_REQUESTS=0, key in X-API-Key, rate limit out of reach`,
          ]
        : []),
      ``,
      ...(samples ? [...httpReport(samples, engineInfo), ``] : []),
      ...(js ? [...inProcessReport(js, samples), ``] : []),
    ];
    if (lookup && boot && openapi) {
      lines.push(
        `Route lookup alone (EndpointRouter.match, in process, CPU ns per call, median of 6 × 200,000): first ${lookup.first.toFixed(0)} ns, last ${lookup.last.toFixed(0)} ns ` +
          `(last vs first ${pct(lookup.first, lookup.last)}), a path with no endpoint ${lookup.miss.toFixed(0)} ns.`,
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

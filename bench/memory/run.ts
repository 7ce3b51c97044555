/**
 * npm run bench:memory [-- --base HEAD~1 --rounds 3 --idle 30 --env MEMORY_PROFILE=small --node PATH --out FILE --no-base]
 *
 * The memory of one server process through issue #21's mix (mix.ts): 500 quotes, 310
 * code tools, 150 text and 40 photo effects, 30 OCR calls, one neural upscale and one
 * remini, then `--idle` seconds with nothing to do. RSS (every thread), the main thread's
 * heap and external memory, the thread count and the CPU time used are read after boot and
 * after each step, with the highest RSS during it (the kernel's VmHWM, reset before each step).
 * The working tree (built first) and the `--base` commit (built in a worktree, base-tree.ts)
 * run in interleaved rounds, alternating which goes first, each in a fresh process; the
 * median of the rounds is reported. `--env` settings go to both servers; `--tree REF`
 * measures a commit instead of the working tree. Both run the mix as the working tree's
 * registry (build/registry.json) lists it, or the `--tree` commit's.
 */
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { baseTree, build } from './base-tree.js';
import { fetchArgs, loadMix, type MixRequest, type Step } from './mix.js';
import { startBuilt, type Memory } from './server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const ROUNDS = Number(option('rounds') ?? 3);
const IDLE_S = Number(option('idle') ?? 30);
const BASE = option('base') ?? 'HEAD~1';
const WITH_BASE = !args.includes('--no-base');
/** A commit to measure instead of the working tree (built in a worktree too). */
const TREE = option('tree');
const OUT = option('out');
/** The Node that runs the servers (default: this one), e.g. a Node 24 beside the machine's own. */
const NODE = option('node') ?? process.execPath;
const ENV: Record<string, string> = Object.fromEntries(
  args.flatMap((a, i) => (a === '--env' ? [args[i + 1]] : [])).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
);
const TEST_KEY = 'manifold-test';

/** The photos the mix sends (a 1024×768 JPEG with grain, as phones send; 256×256 for the neural calls) and the endpoints' fixtures. */
async function fixtureServer() {
  const photo = (w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: '#6a8caf', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
      .blur(1.5)
      .jpeg({ quality: 85 })
      .toBuffer();
  const made = new Map([
    ['photo.jpg', await photo(1024, 768)],
    ['upscale.jpg', await photo(256, 256)],
  ]);
  const server = http.createServer((req, res) => {
    const [, first, second] = (req.url ?? '').split('?')[0].split('/');
    const data = second ? fs.readFileSync(path.join(ROOT, 'endpoints', first, 'fixtures', path.basename(second))) : made.get(first);
    if (!data) return void res.writeHead(404).end();
    const ext = path.extname(second ?? first);
    res.writeHead(200, { 'content-type': ext === '.png' ? 'image/png' : ext === '.jpg' ? 'image/jpeg' : 'application/octet-stream' }).end(data);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    fixtures: { url: (name: string) => `${base}/${name}`, category: (endpointPath: string) => `${base}/${endpointPath.split('/')[2]}` },
  };
}

interface Outcome {
  ok: number;
  failed: number;
  firstFailure?: string;
}

async function send(url: string, r: MixRequest): Promise<{ status: number; body: string }> {
  try {
    return await sendOnce(url, r);
  } catch (err) {
    // the server closed the connection (or died): a failure of the step, not of the bench
    return { status: 0, body: String((err as Error).cause ?? err) };
  }
}

async function sendOnce(url: string, r: MixRequest): Promise<{ status: number; body: string }> {
  const answer = await fetch(...fetchArgs(url, r, TEST_KEY));
  return { status: answer.status, body: await answer.text() };
}

/** The step's requests with `concurrency` in flight. */
async function runStep(url: string, step: Step): Promise<Outcome> {
  const outcome: Outcome = { ok: 0, failed: 0 };
  let next = 0;
  const lane = async () => {
    while (next < step.requests.length) {
      const r = step.requests[next++];
      const { status, body } = await send(url, r);
      if (status >= 200 && status < 300) outcome.ok++;
      else {
        outcome.failed++;
        outcome.firstFailure ??= `${r.path}: ${status} ${body.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: step.concurrency }, lane));
  return outcome;
}

interface Reading {
  step: string;
  memory: Memory;
  outcome?: Outcome;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function oneRun(root: string, steps: Step[]): Promise<Reading[]> {
  const server = await startBuilt(root, ENV, NODE);
  try {
    // what boot starts after listening (the font check, features) settles first
    await sleep(2000);
    const readings: Reading[] = [{ step: 'idle after boot', memory: await server.memory() }];
    for (const step of steps) {
      server.resetPeak();
      const outcome = await runStep(server.url, step);
      readings.push({ step: step.name, memory: await server.memory(), outcome });
      if (step === steps[steps.length - 3]) {
        // the mix's peak is its steps' highest
        const mix = readings.slice(1);
        readings.push({ step: '= after the mix', memory: { ...mix[mix.length - 1].memory, peak: Math.max(...mix.map((r) => r.memory.peak)) } });
      }
    }
    server.resetPeak();
    await sleep(IDLE_S * 1000);
    readings.push({ step: `${IDLE_S} s idle`, memory: await server.memory() });
    return readings;
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function table(runs: Map<string, Reading[][]>): string[] {
  const names = [...runs.keys()];
  const steps = runs.get(names[0])![0].map((r) => r.step);
  const cell = (name: string, i: number, of: (m: Memory) => number) => median(runs.get(name)!.map((rounds) => of(rounds[i].memory)));
  // CPU seconds the step took: boot's since the start, the mix's from boot's reading, any other's from the step before
  const cpuBefore = (rounds: Reading[], i: number) => (i === 0 ? 0 : rounds[steps[i] === '= after the mix' ? 0 : i - 1].memory.cpu);
  const cpuCell = (name: string, i: number) => median(runs.get(name)!.map((rounds) => rounds[i].memory.cpu - cpuBefore(rounds, i)));
  const lines = [
    `| step | ${names.map((n) => `RSS ${n}`).join(' | ')} | ${names.map((n) => `peak ${n}`).join(' | ')} | ${names.map((n) => `heap ${n}`).join(' | ')} | ${names.map((n) => `external ${n}`).join(' | ')} | ${names.map((n) => `threads ${n}`).join(' | ')} | ${names.map((n) => `CPU s ${n}`).join(' | ')} | RSS per round | failed requests |`,
    `|---|${names
      .map(() => '---:|')
      .join('')
      .repeat(6)}---|---|`,
  ];
  steps.forEach((step, i) => {
    const figures = (of: (m: Memory) => number, digits = 0) => names.map((n) => cell(n, i, of).toFixed(digits)).join(' | ');
    const cpu = names.map((n) => cpuCell(n, i).toFixed(1)).join(' | ');
    const perRound = names
      .map(
        (n) =>
          `${n}: ${runs
            .get(n)!
            .map((rounds) => rounds[i].memory.rss.toFixed(0))
            .join(', ')}`,
      )
      .join('; ');
    const failed = names
      .map((n) => {
        const f = runs.get(n)!.flatMap((rounds) => (rounds[i].outcome?.failed ? [rounds[i].outcome!] : []));
        return f.length ? `${n}: ${f.map((o) => o.failed).join('+')} (${f[0].firstFailure})` : '';
      })
      .filter(Boolean)
      .join('; ');
    lines.push(
      `| ${step} | ${figures((m) => m.rss)} | ${figures((m) => m.peak)} | ${figures((m) => m.heapUsed)} | ${figures((m) => m.external)} | ${figures((m) => m.threads)} | ${cpu} | ${perRound} | ${failed || '0'} |`,
    );
  });
  return lines;
}

async function main() {
  const load = os.loadavg();
  const head = TREE ? baseTree(ROOT, TREE) : undefined;
  if (!head) build(ROOT);
  const trees: [string, string][] = [[head ? head.commit : 'this tree', head ? head.dir : ROOT]];
  if (WITH_BASE) {
    const base = baseTree(ROOT, BASE);
    trees.unshift([`base ${base.commit}`, base.dir]);
  }
  const { server, fixtures } = await fixtureServer();
  const steps = loadMix(trees.at(-1)![1], fixtures);
  const runs = new Map<string, Reading[][]>(trees.map(([name]) => [name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [...trees].reverse() : trees;
      for (const [name, root] of order) {
        const readings = await oneRun(root, steps);
        runs.get(name)!.push(readings);
        const mix = readings.find((r) => r.step === '= after the mix')!.memory;
        console.error(
          `round ${round + 1}/${ROUNDS} ${name}: ${mix.rss.toFixed(0)} MiB RSS after the mix, ${readings.at(-1)!.memory.rss.toFixed(0)} MiB after the idle wait`,
        );
      }
    }
  } finally {
    server.close();
  }
  const out = [
    `# Memory through issue #21's mix`,
    ``,
    `Generated by \`npm run bench:memory -- ${args.join(' ')}\` on ${new Date().toISOString()}.`,
    ``,
    `- Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, servers on Node ${execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim()}; load average at start ${load.map((l) => l.toFixed(2)).join(' / ')}, at end ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
    `- Settings for both servers: ${
      Object.keys(ENV).length
        ? Object.entries(ENV)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : 'defaults'
    }; ${ROUNDS} interleaved rounds, a fresh process each, median shown (MiB; heap and external are the main thread's, RSS and threads the whole process's; peak: the highest RSS during the step (boot's since the start, the mix's over its steps); CPU s: the server's CPU seconds for the step, every thread, and for the whole mix on its '= after the mix' row)`,
    ``,
    ...table(runs),
  ].join('\n');
  console.log(out);
  if (OUT) fs.writeFileSync(OUT, `${out}\n`);
}

await main();

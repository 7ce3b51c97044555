import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { build } from '../memory/base-tree.js';
import { BENCH_KEY } from './servers.js';

/**
 * node --import tsx bench/engine/profile.ts [--path /api/fun/quote] [--seconds 10] [--connections 50] [--top 40] [--keep DIR]
 *
 * Where the built server's CPU goes on one endpoint under the bench's load: `npm start`
 * (scripts/start.mjs, the built engine: plain JavaScript, as users run it) under `node --cpu-prof`,
 * the bench key as its test key with the rate limit out of reach, autocannon for a warm-up
 * and then the measured seconds; the profile of the measured part is summed by function
 * (self time) and by where the code lives (engine file, package, Node). /api/fun/advice
 * (the http adapter) is answered by a local stand-in for the Advice Slip API (ADVICE_SLIP_URL).
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const PATH = option('path', '/api/fun/quote');
const SECONDS = Number(option('seconds', '10'));
const CONNECTIONS = Number(option('connections', '50'));
const TOP = Number(option('top', '40'));
const KEEP = args.includes('--keep') ? path.resolve(option('keep', '.')) : undefined;

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface Profile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** A local Advice Slip: the answer of the endpoint's fixture, labelled text/html as the real one does. */
function adviceUpstream(): Promise<http.Server> {
  const body = fs.readFileSync(path.join(ROOT, 'endpoints/fun/fixtures/advice-slip.json'));
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' }).end(body));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** CPU seconds (user + system) the process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Where a frame's code lives: an engine file, a package, Node itself, or V8 (GC, compiled code). */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const engine = url.indexOf('/build/engine/');
  if (engine >= 0) return `engine/${url.slice(engine + '/build/engine/'.length).replace(/\.js$/, '.ts')}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.startsWith('node:')) return url;
  return path.relative(ROOT, fileURLToPath(url));
}

function summarise(profile: Profile, requests: number): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  const areas = new Map<string, number>();
  // each sample counts for the mean interval: a single delta can span a stretch when the
  // sampling thread itself was not scheduled (two busy cores), and would weigh one frame wrongly
  const interval = (profile.endTime - profile.startTime) / profile.samples.length;
  let total = 0;
  profile.samples.forEach((id) => {
    const frame = byId.get(id)!;
    if (frame.functionName === '(idle)') return;
    const us = interval;
    total += us;
    const area = areaOf(frame.url, frame.functionName);
    const fn = `${frame.functionName || '(anonymous)'} ${area}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    self.set(fn, (self.get(fn) ?? 0) + us);
    areas.set(area, (areas.get(area) ?? 0) + us);
  });
  const rows = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `| ${name} | ${((us / total) * 100).toFixed(1)}% | ${(us / requests).toFixed(2)} |`);
  return [
    `Busy (non-idle) samples: ${(total / 1e6).toFixed(2)} s over ${requests} requests, ${(total / requests).toFixed(1)} µs per request.`,
    ``,
    `| where the code lives | share | µs/request |`,
    `|---|---:|---:|`,
    ...rows(areas, TOP),
    ``,
    `| function (self time) | share | µs/request |`,
    `|---|---:|---:|`,
    ...rows(self, TOP),
  ].join('\n');
}

async function main() {
  build(ROOT);
  const upstream = await adviceUpstream();
  const dir = KEEP ?? fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-profile-'));
  fs.mkdirSync(dir, { recursive: true });
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_REQUESTS: '0',
    TEST_API_KEY: BENCH_KEY,
    TEST_KEY_RPM: '1000000000',
    ADVICE_SLIP_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-profile-data-')),
  };
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const listening = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening') resolve(entry as { url: string });
    });
  });
  const run = (seconds: number) =>
    autocannon({ url: `${listening.url}${PATH}`, connections: CONNECTIONS, duration: seconds, headers: { 'X-API-Key': BENCH_KEY } });
  const warm = await run(3);
  if (warm.non2xx) throw new Error(`${PATH}: ${warm.non2xx} answers were not 2xx during the warm-up`);
  // the profile covers the whole process; the measured part is what follows this mark
  const startedAt = cpuSeconds(child.pid!);
  const result = await run(SECONDS);
  const used = cpuSeconds(child.pid!) - startedAt;
  const endedAt = performance.now();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
  // the profile ends at the exit: what came after the measured run is left out
  const tailUs = (performance.now() - endedAt) * 1000;
  upstream.close();
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile was written in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const measured = window(profile, tailUs, result.duration * 1e6);
  console.log(`# ${PATH}: ${result.requests.total} requests in ${SECONDS} s (${Math.round(result.requests.average)}/s), p99 ${result.latency.p99} ms`);
  console.log(
    `Server CPU (from /proc, profiler running): ${((used * 1e6) / result.requests.total).toFixed(1)} µs per request. Profile: ${path.join(dir, file)}`,
  );
  console.log('');
  console.log(summarise(measured, result.requests.total));
}

/** The samples of the `durationUs` that ended `tailUs` before the profile did. */
function window(profile: Profile, tailUs: number, durationUs: number): Profile {
  const to = profile.endTime - tailUs;
  const from = to - durationUs;
  const keep: number[] = [];
  let t = profile.startTime;
  profile.timeDeltas.forEach((delta, i) => {
    t += delta;
    if (t >= from && t <= to) keep.push(i);
  });
  return { ...profile, startTime: from, endTime: to, samples: keep.map((i) => profile.samples[i]), timeDeltas: keep.map((i) => profile.timeDeltas[i]) };
}

await main();

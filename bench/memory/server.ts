/**
 * One built Manifold (a tree with build/ made by scripts/build.ts) started as a host runs
 * it, `node scripts/start.mjs`, in its own process, and its memory read from outside:
 * RSS, threads and CPU time from /proc (every worker thread included), the main thread's V8 heap
 * and external memory from the server's own /metrics (prom-client's default metrics),
 * so the same reading works on any commit without code of its own in the server.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

export interface Memory {
  /** MiB */
  rss: number;
  heapUsed: number;
  external: number;
  /** Threads of the process: the main thread, V8's and libuv's, and every worker. */
  threads: number;
  /** CPU seconds the whole process has used since it started (user + system, every thread). */
  cpu: number;
  /** MiB, the highest RSS since the process started or since `resetPeak` (VmHWM). */
  peak: number;
}

export interface Running {
  url: string;
  pid: number;
  memory(): Promise<Memory>;
  /** Starts the peak (`Memory.peak`) again from the present RSS: the kernel's clear_refs, Linux 4.0+. */
  resetPeak(): void;
  stop(): Promise<void>;
}

const MiB = 2 ** 20;

/** The server's settings for the bench: loopback, no request log, the test key without its rate limit, fixtures on 127.0.0.1 allowed. */
const benchEnv = (dataDir: string, extra: Record<string, string>) => ({
  ...process.env,
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_REQUESTS: '0',
  TEST_KEY_RPM: '100000000',
  ALLOW_PRIVATE_URLS: '1',
  // no .env of the tree: both commits see the same settings
  ENV_FILE: '/dev/null',
  ...extra,
});

export async function startBuilt(root: string, env: Record<string, string>, node = process.execPath): Promise<Running> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-memory-'));
  const child = spawn(node, [path.join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: benchEnv(dataDir, env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await listening(child);
  const pid = child.pid!;
  return {
    url,
    pid,
    memory: () => readMemory(pid, url).catch(() => ({ rss: NaN, heapUsed: NaN, external: NaN, threads: NaN, cpu: NaN, peak: NaN })),
    resetPeak: () => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The URL of the server's `listening` log line. */
async function listening(child: ChildProcess): Promise<string> {
  const lines = readline.createInterface({ input: child.stdout! });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the server exited with ${code} before it listened`))));
  const found = new Promise<string>((resolve) =>
    lines.on('line', (line) => {
      try {
        const entry = JSON.parse(line) as { msg?: string; url?: string };
        if (entry.msg === 'listening' && entry.url) resolve(entry.url);
      } catch {
        // not a log line
      }
    }),
  );
  // the log keeps flowing after this (pino writes to stdout): drained, never read
  return Promise.race([found, exited]).finally(() => child.stdout!.resume());
}

async function readMemory(pid: number, url: string): Promise<Memory> {
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const gauge = (name: string) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(metrics);
    if (!m) throw new Error(`/metrics has no ${name}`);
    return Number(m[1]) / MiB;
  };
  // read after /metrics, so the scrape's own allocations are in both readings alike
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)![1]);
  // utime and stime, the 14th and 15th fields, counted after the command name (which may hold spaces)
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const times = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    rss: field('VmRSS') / 1024,
    heapUsed: gauge('nodejs_heap_size_used_bytes'),
    external: gauge('nodejs_external_memory_bytes'),
    threads: field('Threads'),
    cpu: (Number(times[11]) + Number(times[12])) / CLOCK_TICKS,
    peak: field('VmHWM') / 1024,
  };
}

/** The kernel's clock ticks per second, the unit of /proc/<pid>/stat's times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

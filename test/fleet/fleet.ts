import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadUpstreamSpecs } from '../../engine/catalog/upstreams.js';
// plain JavaScript shared with `npm start`: whether build/ matches engine/
import { ROOT, buildIsStale } from '../../scripts/engine-sources.mjs';
import { startRedis } from '../limits/redis-server.js';
import { startLocalS3, type LocalS3 } from '../storage/s3-server.js';
import { startFixtureDns } from '../support/fixture-dns.js';
import { offlineEnv } from '../support/fixture-environment.js';
import { startFixtureUpstream } from '../support/fixture-upstream.js';
import { startFixtureWhois } from '../support/fixture-whois.js';
import { freePort } from '../support/free-port.js';
import { startPostgres } from '../support/postgres.js';
import { tempDataDir } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

/**
 * A fleet of real processes, as a host runs one: PostgreSQL, Redis and an S3 server
 * (s3rver) started for the caller, and engine instances each started the way
 * `npm start` starts one (`node scripts/start.mjs`, the built entry) with its own
 * port, DATA_DIR and MANIFOLD_ROLE, sharing DATABASE_URL, REDIS_URL and the bucket.
 * Every upstream points at the local fixture upstream, DNS and WHOIS at local
 * servers: nothing leaves this host. Used by test/fleet and bench/fleet.
 */
export const ADMIN_TOKEN = TEST_ADMIN_TOKEN;
export const TEST_KEY = 'fleet-test-key';

type Teardown = { teardown(fn: () => unknown): void };

export interface Services {
  /** The variables every instance shares. */
  env: Record<string, string>;
  s3: LocalS3;
}

/**
 * Start the shared services, or answer why they cannot run here (a missing
 * redis-server or PostgreSQL: the caller skips with that reason).
 */
export async function startServices(t: Teardown, extraEnv: Record<string, string> = {}): Promise<Services | { missing: string }> {
  guardOrphans();
  const redisUrl = await startRedis(t, tempDataDir('manifold-fleet-redis-'));
  if (!redisUrl) return { missing: 'redis-server is not installed (apt-get install -y redis-server)' };
  let databaseUrl: string;
  try {
    databaseUrl = await (await startPostgres(t)).newDatabase();
  } catch (err) {
    if (/not installed/.test((err as Error).message)) return { missing: (err as Error).message };
    throw err;
  }
  const s3 = await startLocalS3();
  t.teardown(() => s3.close());
  const upstream = await startFixtureUpstream();
  const dns = await startFixtureDns();
  const whois = await startFixtureWhois();
  t.teardown(() => Promise.all([upstream.close(), dns.close(), whois.close()]));
  const env = {
    ...offlineEnv(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')), { upstream, dns, whois }),
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    ...s3.env,
    ADMIN_TOKEN,
    TEST_API_KEY: TEST_KEY,
    ALLOW_PRIVATE_URLS: '1', // the pages jobs fetch are local servers
    LOG_REQUESTS: '0',
    ...extraEnv,
  };
  return { env, s3 };
}

export interface EngineProcess {
  role: string;
  url: string;
  pid: number;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  /** Signal it (SIGTERM by default) and wait for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** What it printed so far (for failure messages). */
  output(): string;
}

/** Every engine process started here and still running: killed at teardown, and if this process dies first. */
const running = new Set<ChildProcess>();

/** Pids of the children of `parent` (Linux /proc): the services the support helpers started too. */
export function childPids(parent = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces, so read after its closing parenthesis
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * When this process dies before its teardown ran (a tap timeout, Ctrl-C), the helpers'
 * teardowns never run: kill the engines, and ask every other child (redis-server,
 * postgres) to stop, so nothing outlives the run.
 */
const killAll = () => {
  for (const child of running) child.kill('SIGKILL');
  const engines = new Set([...running].map((c) => c.pid));
  for (const pid of fs.existsSync('/proc') ? childPids() : []) {
    if (engines.has(pid)) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
};
let guarded = false;
function guardOrphans() {
  if (guarded) return;
  guarded = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = () => {
      killAll();
      process.removeListener(signal, onSignal);
      // die of the signal as we would have without this listener (tap's own handler sees it again)
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/** Build once before spawning: several instances starting on a stale build would each rebuild at once. */
let built = false;
function ensureBuilt() {
  if (built) return;
  if (buildIsStale()) execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT, stdio: 'ignore' });
  built = true;
}

/**
 * Start one engine process with `role` and wait until it listens. `publicBaseUrl`
 * defaults to its own address. Killed (SIGKILL) at teardown if still running.
 */
export async function startEngine(t: Teardown, env: Record<string, string>, role: 'api' | 'worker' | 'all', publicBaseUrl?: string): Promise<EngineProcess> {
  ensureBuilt();
  guardOrphans();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...env,
      MANIFOLD_ROLE: role,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: publicBaseUrl ?? url,
      DATA_DIR: tempDataDir(`manifold-fleet-${role}-`),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) =>
    child.once('close', () => {
      running.delete(child);
      resolve();
    }),
  );
  t.teardown(async () => {
    if (!running.has(child)) return;
    child.kill('SIGKILL');
    await exited;
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${role} instance did not listen within 30 s:\n${log}`)), 30_000);
    const onData = () => {
      if (log.includes('"msg":"listening"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${role} instance exited (${code ?? signal}) before listening:\n${log}`));
    });
  });
  return {
    role,
    url,
    pid: child.pid!,
    exited,
    async stop(signal = 'SIGTERM') {
      if (running.has(child)) child.kill(signal);
      await exited;
    },
    output: () => log,
  };
}

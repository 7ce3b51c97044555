import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

/**
 * A throwaway PostgreSQL server for a test file: `initdb` into a temp directory,
 * `postgres` on a free loopback port as a child of the test, stopped (fast
 * shutdown) and removed at teardown. As root it runs as the `postgres` user, which
 * PostgreSQL insists on. Nothing is skipped: without PostgreSQL installed the test
 * fails, saying what to install. Durability is off (fsync, full-page writes): a
 * test database never survives its server.
 */
export interface TestPostgres {
  /** A new, empty database on this server; its `postgres://` URL. */
  newDatabase(): Promise<string>;
  /** Stop the server (fast shutdown: sessions are ended), keeping its data: a database outage. */
  stop(): Promise<void>;
  /** Start it again after stop(), on the same port and data. */
  start(): Promise<void>;
  /** SIGSTOP the server and its backends: connections are accepted by the kernel and never answered, open sessions hang. */
  freeze(): void;
  /** SIGCONT after freeze(): the server answers again, as if nothing happened. */
  thaw(): void;
}

const MISSING =
  'PostgreSQL is not installed: apt-get install -y postgresql (the tests look for initdb and postgres in /usr/lib/postgresql/<version>/bin, or PG_BIN)';

function binDir(): string {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : (fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql') : [])
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => path.join('/usr/lib/postgresql', version, 'bin'));
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'postgres')));
  if (!found) throw new Error(MISSING);
  return found;
}

/** uid/gid to run PostgreSQL as: the `postgres` user when this process is root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('Running as root, PostgreSQL needs the postgres user (created by the Debian package)');
  return { uid, gid: id('-g') };
}

let databases = 0;

export async function startPostgres(t: { teardown(fn: () => unknown): void }): Promise<TestPostgres> {
  const bin = binDir();
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-pg-'));
  fs.chmodSync(dir, 0o755);
  if (user) fs.chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'manifold', '-E', 'UTF8', '--no-sync'], {
    ...user,
    encoding: 'utf8',
  });
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.stderr}${init.stdout}`);

  const port = await freePort();
  let running: { child: ChildProcess; exited: Promise<void> } | undefined;
  const launch = async () => {
    const child = spawn(
      path.join(bin, 'postgres'),
      [
        '-D',
        data,
        '-p',
        String(port),
        '-k',
        dir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'synchronous_commit=off',
      ],
      { ...user, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    running = { child, exited: new Promise<void>((resolve) => child.once('close', () => resolve())) };
    await new Promise<void>((resolve, reject) => {
      let log = '';
      const onData = (chunk: Buffer) => {
        log += chunk;
        if (log.includes('database system is ready to accept connections')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`postgres exited with ${code}:\n${log}`)));
    });
  };
  let frozen = false;
  /** The postmaster and its children (backends, background workers). */
  const signal = (name: 'SIGSTOP' | 'SIGCONT') => {
    const pid = running?.child.pid;
    if (!pid) throw new Error('PostgreSQL is not running');
    const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    // the postmaster first on the way down, last on the way up: no backend is forked in between
    for (const p of name === 'SIGSTOP' ? [pid, ...children] : [...children, pid]) process.kill(p, name);
    frozen = name === 'SIGSTOP';
  };
  const stop = async () => {
    if (!running) return;
    if (frozen) signal('SIGCONT');
    running.child.kill('SIGINT'); // fast shutdown: running sessions are ended
    await running.exited;
    running = undefined;
  };
  t.teardown(async () => {
    await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  await launch();

  const base = `postgres://manifold@127.0.0.1:${port}`;
  return {
    stop,
    start: launch,
    freeze: () => signal('SIGSTOP'),
    thaw: () => signal('SIGCONT'),
    async newDatabase() {
      const name = `manifold_${process.pid}_${++databases}`;
      const admin = new pg.Client({ connectionString: `${base}/postgres` });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `${base}/${name}`;
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../support/free-port.js';

/**
 * A throwaway redis-server for a test: random free port, loopback only, no
 * persistence, killed at teardown. Resolves to its URL, or to undefined when
 * redis-server is not installed (the caller decides whether that fails or skips).
 */

/** A running server: its URL, SIGSTOP/SIGCONT to make it unresponsive and back (the TCP port keeps accepting), and stop/start for an outage. */
export interface RedisServer {
  url: string;
  freeze(): void;
  thaw(): void;
  /** Stop the server (its port then refuses connections); resolves once it has exited. */
  stop(): Promise<void>;
  /** Start it again after stop(), on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
}

export async function startRedis(t: { teardown(fn: () => unknown): void }, dir: string): Promise<string | undefined> {
  return (await startRedisServer(t, dir))?.url;
}

export async function startRedisServer(t: { teardown(fn: () => unknown): void }, dir: string): Promise<RedisServer | undefined> {
  const port = await freePort();
  let running: { child: ChildProcess; exited: Promise<void> } | undefined;
  const launch = () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running = { child, exited: new Promise<void>((resolve) => child.once('close', () => resolve())) };
    return new Promise<boolean>((resolve, reject) => {
      let log = '';
      child.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(false) : reject(error)));
      child.stdout!.on('data', (chunk: Buffer) => {
        log += chunk;
        if (log.includes('Ready to accept connections')) resolve(true);
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${log}`)));
    });
  };
  const stop = async () => {
    if (!running) return;
    const { child, exited } = running;
    running = undefined;
    child.kill('SIGCONT'); // a frozen server would not act on SIGTERM
    child.kill('SIGTERM');
    await exited;
  };
  t.teardown(stop);
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => void running?.child.kill('SIGSTOP'),
    thaw: () => void running?.child.kill('SIGCONT'),
    stop,
    async start() {
      if (!running) await launch();
    },
  };
  return (await launch()) ? server : undefined;
}

import { spawn } from 'node:child_process';
import { freePort } from '../support/free-port.js';

/**
 * A throwaway redis-server for a test: random free port, loopback only, no
 * persistence, killed at teardown. Resolves to its URL, or to undefined when
 * redis-server is not installed (the caller decides whether that fails or skips).
 */

/** A running server: its URL, and SIGSTOP/SIGCONT to make it unresponsive and back (the TCP port keeps accepting). */
export interface RedisServer {
  url: string;
  freeze(): void;
  thaw(): void;
}

export async function startRedis(t: { teardown(fn: () => unknown): void }, dir: string): Promise<string | undefined> {
  return (await startRedisServer(t, dir))?.url;
}

export async function startRedisServer(t: { teardown(fn: () => unknown): void }, dir: string): Promise<RedisServer | undefined> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  t.teardown(async () => {
    child.kill('SIGCONT'); // a frozen server would not act on SIGTERM
    child.kill('SIGTERM');
    await exited;
  });
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
  };
  return new Promise((resolve, reject) => {
    let log = '';
    child.once('error', (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? resolve(undefined) : reject(error)));
    child.stdout.on('data', (chunk: Buffer) => {
      log += chunk;
      if (log.includes('Ready to accept connections')) resolve(server);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${log}`)));
  });
}

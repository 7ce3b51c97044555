import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/**
 * node --import tsx bench/engine/slow-clients.ts [--tricklers 1000 --addresses 1 --seconds 30 --nofile 1024]
 *
 * What slow clients cost everyone else (issue #22 item 5). `npm start`'s server runs in
 * its own process under an open-files limit of `--nofile` (1,024: the common default
 * the issue's campaign hit); `--tricklers` connections from `--addresses` loopback
 * addresses (127.0.1.x) each send headers, then one byte of body every 5 s; meanwhile
 * 8 ordinary clients from 127.0.0.2 call /api/fun/quote back to back for `--seconds`, a new
 * connection per call.
 * Prints their p50/p99/max latency and failures, how many tricklers were refused (429)
 * or cut off (408), and how many were still open at the end.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values } = parseArgs({
  options: {
    tricklers: { type: 'string', default: '1000' },
    addresses: { type: 'string', default: '1' },
    seconds: { type: 'string', default: '30' },
    nofile: { type: 'string', default: '1024' },
  },
});
const [TRICKLERS, ADDRESSES, SECONDS, NOFILE] = [values.tricklers, values.addresses, values.seconds, values.nofile].map(Number);
const KEY = 'bench-slow-clients';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-bench-slow-'));
const child = spawn('prlimit', [`--nofile=${NOFILE}:${NOFILE}`, process.execPath, path.join(ROOT, 'scripts', 'start.mjs')], {
  cwd: ROOT,
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, TEST_API_KEY: KEY, TEST_KEY_RPM: '100000000', LOG_REQUESTS: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise<number>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
  readline.createInterface({ input: child.stdout! }).on('line', (line) => {
    const url = /"url":"[^"]*:(\d+)"/.exec(line);
    if (url) resolve(Number(url[1]));
  });
});

const outcome = { refused: 0, cut: 0, otherClose: 0 };
const open = new Set<net.Socket>();
for (let i = 0; i < TRICKLERS; i++) {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.1.${1 + (i % ADDRESSES)}` });
  open.add(socket);
  let status = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.on('error', () => {});
  socket.once('data', (d: Buffer) => (status = Number(/^HTTP\/1\.1 (\d{3})/.exec(d.toString('latin1'))?.[1] ?? 0)));
  socket.once('connect', () => {
    socket.write(`POST /api/tools/diff HTTP/1.1\r\nHost: x\r\nX-API-Key: ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`);
    timer = setInterval(() => socket.write(' '), 5000);
  });
  socket.once('close', () => {
    clearInterval(timer);
    open.delete(socket);
    if (status === 429) outcome.refused++;
    else if (status === 408) outcome.cut++;
    else outcome.otherClose++;
  });
}

const latencies: number[] = [];
const failures: Record<string, number> = {};
// a new connection per call, as many bots make them: each needs a descriptor of its own
const agent = new http.Agent({ keepAlive: false, localAddress: '127.0.0.2' } as http.AgentOptions);
const until = performance.now() + SECONDS * 1000;
const call = () =>
  new Promise<void>((resolve) => {
    const started = performance.now();
    const req = http.get({ port, host: '127.0.0.1', path: '/api/fun/quote', headers: { 'X-API-Key': KEY }, agent, timeout: 30_000 }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode === 200) latencies.push(performance.now() - started);
        else failures[res.statusCode ?? 0] = (failures[res.statusCode ?? 0] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      failures[err.code ?? err.message] = (failures[err.code ?? err.message] ?? 0) + 1;
      resolve();
    });
  });
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (performance.now() < until) await call();
  }),
);

latencies.sort((a, b) => a - b);
const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN);
console.log(
  JSON.stringify({
    tricklers: TRICKLERS,
    addresses: ADDRESSES,
    nofile: NOFILE,
    seconds: SECONDS,
    ok: latencies.length,
    failures,
    p50_ms: at(0.5),
    p99_ms: at(0.99),
    max_ms: Math.round(latencies.at(-1) ?? NaN),
    tricklers_refused_429: outcome.refused,
    tricklers_cut_408: outcome.cut,
    tricklers_closed_otherwise: outcome.otherClose,
    tricklers_still_open: open.size,
  }),
);
for (const socket of open) socket.destroy();
agent.destroy();
child.kill('SIGTERM');
fs.rmSync(dataDir, { recursive: true, force: true });

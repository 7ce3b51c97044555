import http, { IncomingMessage, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY, start } from './servers.js';

/**
 * The JavaScript cost of one request, without sockets: requests are handed to a
 * target's request listener as IncomingMessage/ServerResponse pairs on sockets that
 * discard what is written, 50 in flight at a time. This leaves out what autocannon
 * rows include and no server code can change (TCP on loopback, the HTTP parser,
 * syscalls, a client competing for the two cores), so a change in the engine's own
 * path shows here clearly even when the machine is busy.
 *
 *   node --import tsx bench/engine/in-process.ts <target> <path>
 *
 * Alone, prints one JSON line: {cpuUs} (CPU µs per request, median of the measured rounds).
 * Started by run.ts with an IPC channel, it prints {ready: true} and then answers each message
 * {requests} with {cpuUs} for that many requests: run.ts keeps one such process per target and
 * has them take turns, so the targets' rounds are interleaved like the HTTP ones.
 */

const IN_FLIGHT = 50;
const PER_ROUND = 5000;
const WARM_UP_ROUNDS = 3;
const ROUNDS = 10;

/** A socket that accepts and drops every write. */
class NullSocket extends Duplex {
  readonly remoteAddress = '127.0.0.1';
  override _read() {}
  override _write(_chunk: unknown, _encoding: unknown, done: () => void) {
    done();
  }
  override _writev(_chunks: unknown, done: () => void) {
    done();
  }
}

/** One GET through the listener on this socket; resolves with the status once the response finished. */
function inject(listener: http.RequestListener, socket: NullSocket, path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(socket as never);
    req.method = 'GET';
    req.url = path;
    req.headers = { host: '127.0.0.1', 'x-api-key': BENCH_KEY };
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    res.once('finish', () => {
      res.detachSocket(socket as never);
      resolve(res.statusCode);
    });
    listener(req, res);
  });
}

/** CPU µs per request over one round of `requests` requests. */
async function round(listener: http.RequestListener, path: string, requests = PER_ROUND): Promise<number> {
  const before = process.cpuUsage();
  let sent = 0;
  const lane = async () => {
    const socket = new NullSocket();
    while (sent < requests) {
      sent++;
      const status = await inject(listener, socket, path);
      if (status !== 200) throw new Error(`${path} answered ${status}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / requests;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [kind, path = '/'] = process.argv.slice(2);
  const listener = start(kind).server.listeners('request')[0] as http.RequestListener;
  if (process.send) {
    process.on('message', (message: { requests: number }) => void round(listener, path, message.requests).then((cpuUs) => process.send!({ cpuUs })));
    process.on('disconnect', () => process.exit(0));
    console.log(JSON.stringify({ ready: true }));
  } else {
    const samples: number[] = [];
    for (let i = 0; i < WARM_UP_ROUNDS + ROUNDS; i++) {
      const cpu = await round(listener, path);
      if (i >= WARM_UP_ROUNDS) samples.push(cpu);
    }
    samples.sort((a, b) => a - b);
    console.log(JSON.stringify({ cpuUs: (samples[ROUNDS / 2 - 1] + samples[ROUNDS / 2]) / 2 }));
    process.exit(0);
  }
}

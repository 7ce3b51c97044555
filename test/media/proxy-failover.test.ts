import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { failoverDial, mediaProxyDial, proxyList, redactProxy } from '../../engine/features/media/proxy-failover.js';

/**
 * MEDIA_PROXY with several proxies: a connection goes through the first one that is up;
 * one that fails (refused, CONNECT answered 502) is set aside and the same connection is
 * tried through the next; after the pause it is tried again. Real sockets: an echo
 * target, an HTTP proxy that tunnels, one that answers 502, and a port nobody listens on.
 */
const listen = async (server: net.Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise((resolve) => server.close(resolve)));
  return (server.address() as AddressInfo).port;
};

const echo = net.createServer((socket) => socket.pipe(socket));
const targetPort = await listen(echo);

const connects = { good: 0, bad: 0 };
const sockets = new Set<net.Socket>();
const good = http.createServer();
good.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
  connects.good++;
  sockets.add(client);
  const [host, port] = (req.url ?? '').split(':');
  const upstream = net.connect(Number(port), host, () => {
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => client.destroy());
  client.on('close', () => upstream.destroy());
});
const bad = http.createServer();
bad.on('connect', (_req: http.IncomingMessage, client: net.Socket) => {
  connects.bad++;
  client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
});
const goodUrl = `http://user:good-secret@127.0.0.1:${await listen(good)}`;
const badUrl = `http://user:bad-secret@127.0.0.1:${await listen(bad)}`;
t.teardown(() => {
  for (const socket of sockets) socket.destroy();
});
// a port that was free a moment ago: connecting is refused
const probe = net.createServer();
const deadPort = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)));
await new Promise((resolve) => probe.close(resolve));
const deadUrl = `http://user:dead-secret@127.0.0.1:${deadPort}`;

/** Dial, send a line through the tunnel and read it back. */
async function roundTrip(dial: (address: string, port: number) => Promise<net.Socket>): Promise<string> {
  const socket = await dial('127.0.0.1', targetPort);
  try {
    const answer = new Promise<string>((resolve) => socket.once('data', (chunk) => resolve(chunk.toString())));
    socket.write('ping');
    return await answer;
  } finally {
    socket.destroy();
  }
}

t.test('the list as the host writes it, and proxies named without credentials', async (t) => {
  t.same(proxyList(' socks5://a:1080 , http://u:p@b:3128,'), ['socks5://a:1080', 'http://u:p@b:3128']);
  t.equal(redactProxy('http://user:pass@proxy.example:3128'), 'http://proxy.example:3128');
  t.equal(typeof (mediaProxyDial(goodUrl) as { states?: unknown }).states, 'undefined', 'one proxy: dialled as before');
  t.equal(typeof (mediaProxyDial(`${deadUrl},${goodUrl}`) as { states?: unknown }).states, 'function', 'several: with failover');
});

t.test('a dead or failing proxy is set aside and the same connection goes through the next', async (t) => {
  let clock = 1_000_000;
  const dial = failoverDial([deadUrl, badUrl, goodUrl], { retryAfterMs: 60_000, now: () => clock });
  connects.good = connects.bad = 0;
  t.equal(await roundTrip(dial), 'ping', 'through the third');
  t.same(connects, { good: 1, bad: 1 });
  t.match(dial.states(), [
    { proxy: `http://127.0.0.1:${deadPort}`, up: false, failures: 1 },
    { up: false, failures: 1, lastError: /502/ },
    { up: true, failures: 0 },
  ]);

  t.equal(await roundTrip(dial), 'ping');
  t.same(connects, { good: 2, bad: 1 }, 'the set-aside ones are not tried while their pause lasts');

  clock += 60_001;
  t.equal(await roundTrip(dial), 'ping');
  t.same(connects, { good: 3, bad: 2 }, 'after the pause they are tried again, in order');

  const reported = JSON.stringify(dial.states());
  t.notMatch(reported, /secret/, 'no credentials in what is reported');
});

t.test('when every proxy fails, the error names each one, without credentials', async (t) => {
  const dial = failoverDial([deadUrl, badUrl]);
  const error = await roundTrip(dial).then(
    () => undefined,
    (e: Error) => e,
  );
  t.match(error?.message, /every MEDIA_PROXY failed to connect \(http:\/\/127\.0\.0\.1:\d+: .*; http:\/\/127\.0\.0\.1:\d+: .*502/);
  t.notMatch(error?.message, /secret/);
  // all set aside now: the next connection still tries them rather than failing unasked
  connects.bad = 0;
  await roundTrip(dial).catch(() => undefined);
  t.equal(connects.bad, 1);
});

/**
 * yt-dlp's traffic goes through the egress proxy, which applies the SSRF guard to
 * every connection, redirects and embedded URLs included. Host names are resolved by
 * a fake resolver: `media.test` is "public" (127.0.0.1, allowed), `private.test` is
 * 10.0.0.1 and refused, as every non-allowed address is.
 */
import http from 'node:http';
import net from 'node:net';
import t, { type Test } from 'tap';
import { createSsrfGuard } from '../../engine/platform/http/ssrf-guard.js';
import { startEgressProxy } from '../../engine/features/media/egress-proxy.js';
import { proxyDial } from '../../engine/features/media/outbound-proxy.js';
import { infoArgs, runInfo } from '../../engine/features/media/ytdlp.js';
import { makeClip, startMediaServer } from './media-server.js';

const guard = createSsrfGuard({
  allowPrivate: false,
  resolver: async (host) => [{ address: host === 'media.test' ? '127.0.0.1' : '10.0.0.1', family: 4 }],
  addressProblem: (ip) => (ip === '127.0.0.1' ? undefined : 'private'),
});
const proxy = await startEgressProxy(guard);
const media = await startMediaServer();
makeClip(media.dir);
const port = new URL(media.url('x')).port;
const publicUrl = (name: string) => `http://media.test:${port}/${name}`;
t.teardown(async () => {
  await proxy.close();
  await media.close();
});

/** GET `url` through the proxy the way yt-dlp does for http URLs. */
function viaProxy(proxyUrl: string, url: string, method = 'GET'): Promise<{ status: number; body: Buffer }> {
  const p = new URL(proxyUrl);
  const auth = p.username ? { 'proxy-authorization': `Basic ${Buffer.from(`${decodeURIComponent(p.username)}:${p.password}`).toString('base64')}` } : {};
  return new Promise((resolve, reject) => {
    const req = http.request({ host: p.hostname, port: p.port, method, path: url, headers: { ...auth, host: new URL(url).host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

t.test('allowed hosts pass, refused ones are recorded for their run', async (t) => {
  const ok = await viaProxy(proxy.urlFor('run-1'), publicUrl('clip.mp4'));
  t.equal(ok.status, 200);
  t.ok(ok.body.length > 1000, 'bytes of the clip');
  const refused = await viaProxy(proxy.urlFor('run-2'), `http://private.test:${port}/clip.mp4`);
  t.equal(refused.status, 403);
  t.equal(proxy.takeRefusal('run-2'), 'host resolves to a private address');
  t.equal(proxy.takeRefusal('run-2'), undefined, 'taken once');
  t.equal(proxy.takeRefusal('run-1'), undefined, 'nothing refused for the other run');
});

t.test('without its credentials the proxy is of no use', async (t) => {
  const noAuth = await viaProxy(proxy.urlFor('x').replace(/\/\/[^@]+@/, '//'), publicUrl('clip.mp4'));
  t.equal(noAuth.status, 407);
  const wrong = await viaProxy(proxy.urlFor('x').replace(/:[a-f0-9]{32}@/, ':0123456789abcdef0123456789abcdef@'), publicUrl('clip.mp4'));
  t.equal(wrong.status, 407);
});

t.test('CONNECT to a refused address is answered 403', async (t) => {
  const p = new URL(proxy.urlFor('run-3'));
  const status = await new Promise<number>((resolve, reject) => {
    const req = http.request({
      host: p.hostname,
      port: p.port,
      method: 'CONNECT',
      path: 'private.test:443',
      headers: { 'proxy-authorization': `Basic ${Buffer.from(`run-3:${p.password}`).toString('base64')}` },
    });
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => resolve(res.statusCode ?? 0));
    req.on('error', reject);
    req.end();
  });
  t.equal(status, 403);
  t.match(proxy.takeRefusal('run-3'), /private/);
});

t.test('yt-dlp through the proxy: a redirect to a private address is a 400, not a fetch', async (t) => {
  const redirecting = await startMediaServer({ redirects: { 'go.mp4': `http://private.test:${port}/clip.mp4` } });
  t.teardown(() => redirecting.close());
  const from = `http://media.test:${new URL(redirecting.url('x')).port}/go.mp4`;
  const signal = new AbortController().signal;
  const run = 'yt-1';
  await t.rejects(
    runInfo('yt-dlp', infoArgs(from, { proxy: proxy.urlFor(run) }), signal, () => proxy.takeRefusal(run)),
    {
      status: 400,
      code: 'unsupported_url',
      message: /refused address/,
    },
  );
  const info = await runInfo('yt-dlp', infoArgs(publicUrl('clip.mp4'), { proxy: proxy.urlFor('yt-2') }), signal);
  t.equal(info.title, 'clip', 'an allowed URL resolves through the proxy');
});

/** A forward proxy answering CONNECT, recording the authorities it was asked for. */
async function connectProxy(t: Test): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, socket: net.Socket) => {
    asked.push(`${req.url} ${req.headers['proxy-authorization'] ?? ''}`.trim());
    const [host, port] = [req.url!.slice(0, req.url!.lastIndexOf(':')), Number(req.url!.slice(req.url!.lastIndexOf(':') + 1))];
    const out = net.connect({ host, port }, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      out.pipe(socket);
      socket.pipe(out);
    });
    out.on('error', () => socket.destroy());
    socket.on('error', () => out.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { url: `http://user:p%40ss@127.0.0.1:${(server.address() as net.AddressInfo).port}`, asked };
}

/** A minimal SOCKS5 server (no auth, CONNECT to IPv4 only): what the socks client must speak. */
async function socks5Proxy(t: Test): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = net.createServer((client) => {
    client.once('data', (greeting: Buffer) => {
      if (greeting[0] !== 5) return void client.destroy();
      client.write(Buffer.from([5, 0]));
      client.once('data', (request: Buffer) => {
        if (request[1] !== 1 || request[3] !== 1) return void client.end(Buffer.from([5, 7, 0, 1, 0, 0, 0, 0, 0, 0]));
        const host = [...request.subarray(4, 8)].join('.');
        const port = request.readUInt16BE(8);
        asked.push(`${host}:${port}`);
        const out = net.connect({ host, port }, () => {
          client.write(Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
          out.pipe(client);
          client.pipe(out);
        });
        out.on('error', () => client.destroy());
        client.on('error', () => out.destroy());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `socks5://127.0.0.1:${(server.address() as net.AddressInfo).port}`, asked };
}

t.test('MEDIA_PROXY: checked connections leave through the outbound proxy, to the checked address', async (t) => {
  for (const make of [connectProxy, socks5Proxy]) {
    const outbound = await make(t);
    const chained = await startEgressProxy(guard, proxyDial(outbound.url));
    t.teardown(() => chained.close());
    const ok = await viaProxy(chained.urlFor('run-a'), publicUrl('clip.mp4'));
    t.equal(ok.status, 200, `${outbound.url.split(':')[0]}: a plain http fetch through it`);
    t.ok(ok.body.length > 1000);
    t.match(outbound.asked, [new RegExp(`^127\\.0\\.0\\.1:${port}`)], 'asked for the checked address, never the name');
    if (outbound.url.startsWith('http:')) t.match(outbound.asked[0], /Basic dXNlcjpwQHNz$/, 'with the proxy credentials (user:p@ss)');
    const refused = await viaProxy(chained.urlFor('run-b'), `http://private.test:${port}/clip.mp4`);
    t.equal(refused.status, 403, 'the guard still decides first');
    t.equal(outbound.asked.length, 1, 'a refused target never reaches the outbound proxy');
  }
  t.throws(() => proxyDial('ftp://proxy.test:21'), /http, https, socks4 or socks5/);
});

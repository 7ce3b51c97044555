import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { SsrfGuard } from '../../platform/http/ssrf-guard.js';
import { directDial, type Dial } from './outbound-proxy.js';

/**
 * The SSRF guard for yt-dlp. Checking the user's URL once is not enough: yt-dlp
 * follows redirects, reads embedded URLs (og:video, manifests) and fetches format
 * URLs a page chose. So every yt-dlp run gets `--proxy` pointing here, a loopback
 * forward proxy that checks each target with the same guard as Manifold's own
 * client and connects to the address it checked (no second DNS answer to rebind).
 * Each run has its own credentials, so a refusal is reported to the job that caused
 * it (400 unsupported_url) instead of as a vague extraction failure.
 */
export interface EgressProxy {
  /** A proxy URL for one run (`--proxy`), tied to `runId` for refusal reports. */
  urlFor(runId: string): string;
  /** Why the proxy refused a connection of this run, if it did. Forgets it. */
  takeRefusal(runId: string): string | undefined;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade'];

/** `dial` opens the connection to a checked address: directly, or through MEDIA_PROXY (outbound-proxy.ts). */
export async function startEgressProxy(guard: SsrfGuard, dial: Dial = directDial): Promise<EgressProxy> {
  const secret = crypto.randomBytes(16).toString('hex');
  const refusals = new Map<string, string>();
  const tunnels = new Set<net.Socket>(); // CONNECT sockets leave the server's bookkeeping

  /** The run id of a request with valid credentials, else undefined. */
  const runOf = (header: string | undefined): string | undefined => {
    const m = /^Basic (.+)$/i.exec(header ?? '');
    if (!m) return undefined;
    const [run, pass] = Buffer.from(m[1], 'base64').toString('utf8').split(':');
    const a = Buffer.from(pass ?? '');
    const b = Buffer.from(secret);
    return a.length === b.length && crypto.timingSafeEqual(a, b) ? run : undefined;
  };

  /** Check a target; on refusal remember why for the run and return undefined. */
  async function admit(run: string, url: string): Promise<string | undefined> {
    try {
      const { addresses } = await guard.checkUrl(url, 'url');
      return addresses[0].address;
    } catch (error) {
      const why = (error as { details?: { problem: string }[] }).details?.[0]?.problem ?? 'refused';
      if (refusals.size > 10_000) refusals.clear(); // never grows without bound
      refusals.set(run, why);
      return undefined;
    }
  }

  const server = http.createServer(async (req, res) => {
    const run = runOf(req.headers['proxy-authorization']);
    if (!run) return void res.writeHead(407, { 'proxy-authenticate': 'Basic realm="manifold"' }).end();
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      return void res.writeHead(400).end();
    }
    if (target.protocol !== 'http:') return void res.writeHead(400).end();
    const address = await admit(run, target.href);
    if (!address) return void res.writeHead(403).end('refused by the SSRF guard');
    const headers = { ...req.headers };
    for (const h of HOP_BY_HOP) delete headers[h];
    const port = Number(target.port || 80);
    const upstream = http.request(
      {
        host: address,
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers,
        setHost: false,
        // no agent: createConnection is used only when none is given
        createConnection: (_options, done) =>
          void dial(address, port).then(
            (socket) => done(null, socket),
            (error: Error) => done(error, undefined as never),
          ),
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });

  server.on('connect', async (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    socket.on('error', () => socket.destroy());
    const run = runOf(req.headers['proxy-authorization']);
    if (!run) return void socket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="manifold"\r\n\r\n');
    const m = /^([^:/\s]+|\[[0-9a-f:.]+\]):(\d{1,5})$/i.exec(req.url ?? '');
    if (!m) return void socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const address = await admit(run, `https://${m[1]}:${m[2]}/`);
    if (!address) return void socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    let upstream: net.Socket;
    try {
      upstream = await dial(address, Number(m[2]));
    } catch {
      return void socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    }
    if (socket.destroyed) return void upstream.destroy();
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref(); // never what keeps a process alive
  const port = (server.address() as AddressInfo).port;
  return {
    urlFor: (runId) => `http://${encodeURIComponent(runId)}:${secret}@127.0.0.1:${port}`,
    takeRefusal(runId) {
      const why = refusals.get(runId);
      refusals.delete(runId);
      return why;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        for (const socket of tunnels) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

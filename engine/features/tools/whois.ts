import net from 'node:net';
import { upstreamError, upstreamTimeout } from '../../core/errors.js';
import type { UpstreamRegistry } from '../../catalog/upstreams.js';

/**
 * WHOIS (RFC 3912) through the `whois` upstream (endpoints/upstreams/whois.yaml): its
 * `discovery` server (WHOIS_IANA_SERVER, default whois.iana.org) names a TLD's registry,
 * its `direct` server (WHOIS_SERVER) replaces the discovery (self-hosted mirrors, tests),
 * and its timeoutMs bounds each query.
 */
export function whoisUpstream(upstreams: UpstreamRegistry): { discovery: string; direct?: string; timeoutMs: number } {
  const { servers, timeoutMs } = upstreams.servers('whois');
  return { discovery: servers.discovery ?? 'whois.iana.org', direct: servers.direct, timeoutMs };
}

const MAX_BYTES = 256 * 1024;

/** One query: the text and CRLF to server (host[:port], port 43 by default), the whole answer back. */
export function query(server: string, text: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
  const [host, port] = server.includes(':') ? [server.slice(0, server.lastIndexOf(':')), Number(server.slice(server.lastIndexOf(':') + 1))] : [server, 43];
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const socket = net.connect({ host, port });
    const fail = (err: Error) => {
      socket.destroy();
      reject(err);
    };
    socket.setTimeout(timeoutMs, () => fail(upstreamTimeout(`whois ${host}`, timeoutMs)));
    signal?.addEventListener('abort', () => fail(signal.reason as Error), { once: true });
    socket.on('connect', () => socket.end(`${text}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BYTES) return fail(upstreamError(`whois ${host}`, 'answer too large'));
      chunks.push(chunk);
    });
    socket.on('error', (err) => fail(upstreamError(`whois ${host}`, (err as NodeJS.ErrnoException).code ?? err.message)));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

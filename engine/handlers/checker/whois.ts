import net from 'node:net';
import { upstreamError, upstreamTimeout } from '../../errors.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

/**
 * WHOIS (RFC 3912): ask whois.iana.org which registry serves the TLD (`refer:`),
 * then ask that registry, and for thin registries (.com/.net) follow its
 * `Registrar WHOIS Server` once more. WHOIS_SERVER (host[:port]) skips the
 * discovery and asks one server directly (self-hosted mirrors, tests);
 * WHOIS_IANA_SERVER replaces whois.iana.org for the discovery step.
 */
const MAX_BYTES = 256 * 1024;

function query(server: string, text: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<string> {
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

/** "Key: value" lines, first value per lower-cased key, plus every value per key. */
function fields(text: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][A-Za-z0-9 /._-]{1,60}?):\s*(.+?)\s*$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    map.set(key, [...(map.get(key) ?? []), m[2]]);
  }
  return map;
}

const first = (f: Map<string, string[]>, ...keys: string[]) => keys.map((k) => f.get(k)?.[0]).find(Boolean) ?? null;

export default handler<Params['checker/whois']>(async ({ params, call, setup }) => {
  const domain = String(params.domain).toLowerCase().replace(/\.$/, '');
  const timeoutMs = 8000;
  let server: string | undefined = setup.config.env.WHOIS_SERVER;
  if (!server) {
    const tld = domain.split('.').pop()!;
    const iana = setup.config.env.WHOIS_IANA_SERVER ?? 'whois.iana.org';
    server = first(fields(await query(iana, tld, call.signal, timeoutMs)), 'refer', 'whois') ?? undefined;
    if (!server) throw upstreamError('whois', `no WHOIS server is known for .${tld}`);
  }
  let text = await query(server, domain, call.signal, timeoutMs);
  const referral = first(fields(text), 'registrar whois server');
  if (!setup.config.env.WHOIS_SERVER && referral && referral !== server) {
    text = await query(referral.replace(/^whois:\/\//, ''), domain, call.signal, timeoutMs).catch(() => text);
  }
  const f = fields(text);
  const notFound = /no match|not found|no data found|no entries found|status:\s*free|available for registration/i.test(text) && !f.has('domain name');
  const creationDate = first(f, 'creation date', 'created', 'registered', 'registered on');
  const expirationDate = first(f, 'registry expiry date', 'registrar registration expiration date', 'expiration date', 'expiry date', 'expires', 'paid-till');
  return {
    domainName: first(f, 'domain name', 'domain')?.toLowerCase() ?? domain,
    registered: !notFound,
    registrar: first(f, 'registrar', 'sponsoring registrar', 'registrar name'),
    creationDate,
    expirationDate,
    updatedDate: first(f, 'updated date', 'last updated', 'changed', 'last-modified'),
    created: creationDate,
    expires: expirationDate,
    nameServers: [...new Set((f.get('name server') ?? f.get('nserver') ?? []).map((s) => s.toLowerCase().split(/\s+/)[0]))],
    status: (f.get('domain status') ?? f.get('status') ?? []).map((s) => s.split(/\s+/)[0]),
    server,
    raw: text.trim(),
  };
});

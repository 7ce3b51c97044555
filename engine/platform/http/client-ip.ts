import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyAddr from 'proxy-addr';

/**
 * Who is calling: the client's address as the rate limits, the access log and the
 * per-address limits see it. `X-Forwarded-For` is read only as far as the host trusts
 * the proxies that wrote it (TRUST_PROXY), walking from the direct peer outwards as
 * Express does (proxy-addr): a peer that is not a trusted proxy is the client, whatever
 * header it sent, so a client cannot pick its own address by sending one.
 *
 * TRUST_PROXY takes, as Express's `trust proxy` does:
 * - a list of proxy addresses, CIDR blocks or the names `loopback`, `linklocal`,
 *   `uniquelocal` (e.g. `10.0.0.0/8,127.0.0.1`): the header is believed only from those;
 * - a number of hops (`1`: one proxy in front, whatever its address — the last address it
 *   appended is the client's); a direct connection that bypasses that proxy can then name
 *   its own address, so a list is the safer choice where the proxy's address is known;
 * - unset, empty or `0`: the direct peer, the header ignored.
 */

/** How far X-Forwarded-For is believed. */
export type TrustProxy = { hops: number } | { proxies: readonly string[] };

/** Parse TRUST_PROXY; throws an Error naming the variable on a value that is neither a hop count nor a list of addresses. */
export function parseTrustProxy(raw: string | undefined): TrustProxy | undefined {
  const value = raw?.trim();
  if (!value || value === '0') return undefined;
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  const proxies = value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(proxies);
  } catch (err) {
    throw new Error(
      `TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses, CIDR blocks, loopback, linklocal or uniquelocal, got "${raw}" (${(err as Error).message})`,
    );
  }
  return { proxies: Object.freeze(proxies) };
}

/** The client address of a request, by the host's TRUST_PROXY. */
export type ClientIp = (req: IncomingMessage) => string;

/** Made once per engine (compiling the trusted list is the costly part). */
export function clientIpResolver(trust: TrustProxy | undefined): ClientIp {
  if (!trust) return (req) => plain(req.socket.remoteAddress ?? '');
  const trusted = 'hops' in trust ? (_addr: string, i: number) => i < trust.hops : proxyAddr.compile([...trust.proxies]);
  return (req) => {
    // [peer, …trusted proxies…, client]: the first address not trusted, or the farthest one reached
    const chain = proxyAddr.all(req, trusted);
    // an entry that is no address (a proxy that forwards garbage) names no one: the nearest real address does
    for (let i = chain.length - 1; i >= 0; i--) if (isAddress(chain[i]!)) return plain(chain[i]!);
    return plain(req.socket.remoteAddress ?? '');
  };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
/** Dotted-quad IPv4 or IPv6 only: ipaddr.isValid also takes `10` or `0x7f.1`, which no proxy writes. */
const isAddress = (value: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(value) || ipaddr.IPv6.isValid(value);

/** `::ffff:203.0.113.5` (an IPv4 client on a dual-stack socket) as `203.0.113.5`: one client, one budget. */
const plain = (address: string): string => (address.startsWith('::ffff:') && IPV4.test(address.slice(7)) ? address.slice(7) : address);

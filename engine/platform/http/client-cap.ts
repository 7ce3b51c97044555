import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';
import { ApiError } from '../../core/errors.js';
import { clientIpResolver, type TrustProxy } from './client-ip.js';

/**
 * CLIENT_MAX_CONNECTIONS: how much of the server one client address may hold at once.
 * Every open connection costs a file descriptor, and slow clients (a body trickled in,
 * headers that never end) hold theirs for as long as the timeouts allow: without a cap,
 * one address with a thousand such connections exhausts the process's descriptors and
 * every other client's connection is reset. With the cap, the excess is answered 429 at
 * once and closed, and the rest of the descriptors stay for everyone else.
 *
 * A direct client is counted by connection. Connections from a trusted proxy carry many
 * clients' requests, so there the count is of requests in progress per forwarded client
 * address (a proxy keeps its own connections open and reuses them).
 */
export class ClientCap {
  readonly #held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Count one more for `client`; false, with nothing counted, when it already holds `max`. */
  take(client: string): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= this.max) return false;
    this.#held.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    const held = (this.#held.get(client) ?? 1) - 1;
    if (held > 0) this.#held.set(client, held);
    else this.#held.delete(client);
  }

  /** What `client` holds now. */
  held(client: string): number {
    return this.#held.get(client) ?? 0;
  }
}

/** The answer to a client over its cap: 429 (its own excess; other clients are served) naming the setting. */
export const tooManyConnections = (max: number) =>
  new ApiError('rate_limited', `This address already has ${max} connections open (CLIENT_MAX_CONNECTIONS); close some or retry later`, {
    headers: { 'Retry-After': '1' },
  });

/**
 * Who a connection or a request is from. `viaProxy(peer)` says whether a connected peer is
 * a trusted proxy, whose requests carry the real client's address; `clientOf(req)` is that
 * address for a request from such a proxy.
 */
export interface ClientAddressing {
  viaProxy(peer: string): boolean;
  clientOf(req: IncomingMessage): string;
}

/**
 * By the host's TRUST_PROXY (http/client-ip.ts): a peer it trusts as a proxy (any peer, when
 * it gives a hop count) is counted per request by the client address it forwards; with no
 * TRUST_PROXY every peer is the client itself, counted by connection.
 */
export function clientAddressing(trust: TrustProxy | undefined): ClientAddressing {
  if (!trust) return { viaProxy: () => false, clientOf: (req) => peerAddress(req.socket.remoteAddress) };
  const trusted = 'hops' in trust ? () => true : proxyAddr.compile([...trust.proxies]);
  return { viaProxy: (peer) => trusted(peer, 0), clientOf: clientIpResolver(trust) };
}

/** A socket's remote address as one key per client: `::ffff:1.2.3.4` (IPv4 on a dual-stack listener) is `1.2.3.4`. */
export const peerAddress = (address: string | undefined): string => (address ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

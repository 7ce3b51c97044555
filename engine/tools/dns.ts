import { Resolver } from 'node:dns/promises';
import type { UpstreamRegistry } from '../upstreams.js';

/**
 * DNS lookups through the `dns` upstream (endpoints/upstreams/dns.yaml): its resolvers
 * (DNS_SERVERS, a comma list of host[:port]; unset = the system's) and its short budget
 * per query, one try, so a dead resolver fails fast.
 */
export function resolverFor(upstreams: UpstreamRegistry): Resolver {
  const { servers, timeoutMs } = upstreams.servers('dns');
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.resolvers) resolver.setServers(servers.resolvers.split(',').map((s) => s.trim()));
  return resolver;
}

/** DNS answers that mean "no such record", as opposed to "could not ask". */
export const isNoData = (code: string | undefined) => code === 'ENODATA' || code === 'ENOTFOUND';

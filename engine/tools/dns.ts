import { Resolver } from 'node:dns/promises';

/** DNS lookups with short, bounded timeouts; DNS_SERVERS (comma list, host[:port]) picks the resolvers. */

export function resolverFor(env: Readonly<Record<string, string>>, timeoutMs = 3000): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (env.DNS_SERVERS) resolver.setServers(env.DNS_SERVERS.split(',').map((s) => s.trim()));
  return resolver;
}

/** DNS answers that mean "no such record", as opposed to "could not ask". */
export const isNoData = (code: string | undefined) => code === 'ENODATA' || code === 'ENOTFOUND';

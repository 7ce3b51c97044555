import { Resolver } from 'node:dns/promises';
import { notFound, upstreamError } from '../../errors.js';
import type { Operation } from './types.js';

/** DNS lookups with short, bounded timeouts; DNS_SERVERS (comma list, host[:port]) picks the resolvers. */

export function resolverFor(env: Readonly<Record<string, string>>, timeoutMs = 3000): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (env.DNS_SERVERS) resolver.setServers(env.DNS_SERVERS.split(',').map((s) => s.trim()));
  return resolver;
}

/** DNS answers that mean "no such record", as opposed to "could not ask". */
export const isNoData = (code: string | undefined) => code === 'ENODATA' || code === 'ENOTFOUND';

interface DnsRecord {
  type: string;
  ttl?: number;
  ip?: string;
  target?: string;
  priority?: number;
  value?: string;
}

type Lookup = (r: Resolver, domain: string) => Promise<DnsRecord[]>;

const LOOKUPS: Record<string, Lookup> = {
  A: async (r, d) => (await r.resolve4(d, { ttl: true })).map((a) => ({ type: 'A', ttl: a.ttl, ip: a.address })),
  AAAA: async (r, d) => (await r.resolve6(d, { ttl: true })).map((a) => ({ type: 'AAAA', ttl: a.ttl, ip: a.address })),
  CNAME: async (r, d) => (await r.resolveCname(d)).map((target) => ({ type: 'CNAME', target })),
  MX: async (r, d) => (await r.resolveMx(d)).sort((a, b) => a.priority - b.priority).map((m) => ({ type: 'MX', target: m.exchange, priority: m.priority })),
  NS: async (r, d) => (await r.resolveNs(d)).map((target) => ({ type: 'NS', target })),
  TXT: async (r, d) => (await r.resolveTxt(d)).map((parts) => ({ type: 'TXT', value: parts.join('') })),
};

/** Every common record type of a domain, asked in parallel (the shape dns-check clients read). */
export const dnsCheck: Operation = async ({ params, setup }) => {
  const resolver = resolverFor(setup.config.env);
  const domain = String(params.domain).toLowerCase().replace(/\.$/, '');
  const answers = await Promise.allSettled(Object.values(LOOKUPS).map((lookup) => lookup(resolver, domain)));
  const failures = answers.flatMap((a) => (a.status === 'rejected' ? [(a.reason as { code?: string }).code] : []));
  const records = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
  if (records.length === 0) {
    if (failures.every((code) => code === 'ENOTFOUND')) throw notFound(`The domain ${domain} does not exist`);
    const broken = failures.find((code) => !isNoData(code));
    if (broken) throw upstreamError('dns', broken);
  }
  return { domain, records };
};

import { Resolver } from 'node:dns/promises';
import { notFound, upstreamError } from '../../errors.js';
import { isNoData, resolverFor } from '../../tools/dns.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

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
export default handler<Params['checker/dns']>(async ({ params, setup }) => {
  const resolver = resolverFor(setup.upstreams);
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
});

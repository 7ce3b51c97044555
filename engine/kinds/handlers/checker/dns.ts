import { notFound, upstreamError } from '../../../core/errors.js';
import { isNoData, resolverFor, type DnsData, type DnsType } from '../../../features/tools/dns.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** One record in the shape dns-check clients read: `type`, `ttl`, and the fields its type has. */
interface DnsCheckRecord {
  type: DnsType;
  ttl: number;
  ip?: string;
  target?: string;
  priority?: number;
  value?: string;
}

/** The fields each type's data becomes; the types asked, in the order records are listed. */
const FIELDS: { [T in DnsType]: (data: DnsData[T]) => Omit<DnsCheckRecord, 'type' | 'ttl'> } = {
  A: (ip) => ({ ip }),
  AAAA: (ip) => ({ ip }),
  CNAME: (target) => ({ target }),
  MX: (mx) => ({ target: mx.exchange, priority: mx.preference }),
  NS: (target) => ({ target }),
  // a TXT record is one or more strings of at most 255 bytes each; clients want the whole text
  TXT: (strings) => ({ value: Buffer.concat(strings).toString('utf8') }),
};

/** Every common record type of a domain, asked in parallel (the shape dns-check clients read). */
export default handler<Params['checker/dns']>(async ({ params, setup, call }) => {
  const resolver = resolverFor(setup.upstreams);
  const domain = String(params.domain).toLowerCase().replace(/\.$/, '');
  const lookup = async <T extends DnsType>(type: T): Promise<DnsCheckRecord[]> => {
    const records = (await resolver.resolve(domain, type, call.signal)).map(({ ttl, data }) => ({ type, ttl, ...FIELDS[type](data) }));
    return type === 'MX' ? records.sort((a, b) => a.priority! - b.priority!) : records;
  };
  const answers = await Promise.allSettled((Object.keys(FIELDS) as DnsType[]).map(lookup));
  const failures = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason as { code?: string }] : []));
  const records = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
  if (records.length === 0) {
    if (failures.every((err) => err.code === 'ENOTFOUND')) throw notFound(`The domain ${domain} does not exist`);
    const broken = failures.find((err) => !isNoData(err.code));
    // an abort (client gone, endpoint deadline) is not the resolver's fault: let it through as it is
    if (broken) throw broken.code ? upstreamError('dns', broken.code) : broken;
  }
  return { domain, records };
});

import ipaddr from 'ipaddr.js';
import { parseCidr } from '../../../features/tools/network.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** IP addresses and CIDR ranges (ipaddr.js, the parser the SSRF guard uses too). */

/** ipaddr.js range names, e.g. 'private', 'loopback', 'unicast' (= public). */
const isPublic = (range: string) => range === 'unicast';

export default handler<Params['checker/ip']>(({ params }) => {
  const input = String(params.ip).trim();
  if (!ipaddr.isValid(input)) return { valid: false, ip: input };
  const addr = ipaddr.parse(input);
  const mapped = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : undefined;
  const range = (mapped ?? addr).range();
  let inCidr: boolean | undefined;
  if (params.cidr) {
    const [net, bits] = parseCidr(params.cidr);
    inCidr = net.kind() === (mapped ?? addr).kind() && (mapped ?? addr).match(net, bits);
  }
  return {
    valid: true,
    ip: addr.toString(),
    version: addr.kind() === 'ipv4' ? 4 : 6,
    normalized: addr.kind() === 'ipv6' ? (addr as ipaddr.IPv6).toNormalizedString() : addr.toString(),
    range,
    public: isPublic(range),
    ipv4Mapped: mapped ? mapped.toString() : null,
    inCidr: inCidr ?? null,
  };
});

import ipaddr from 'ipaddr.js';
import { parseCidr } from '../../../features/tools/network.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Subnet calculator: network, broadcast, first/last host and size of a CIDR range. */
export default handler<Params['tools/subnet']>(({ params }) => {
  const [addr, bits] = parseCidr(params.cidr);
  const v4 = addr.kind() === 'ipv4';
  const width = v4 ? 32 : 128;
  const bytes = addr.toByteArray();
  const value = bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
  const hostMask = (1n << BigInt(width - bits)) - 1n;
  const network = value & ~hostMask;
  const last = network | hostMask;
  const toAddr = (n: bigint) => ipaddr.fromByteArray(Array.from({ length: width / 8 }, (_, i) => Number((n >> BigInt(width - 8 * (i + 1))) & 255n))).toString();
  const size = hostMask + 1n;
  // IPv4 /31 and /32 have no network/broadcast to skip (RFC 3021)
  const skip = v4 && bits < 31 ? 1n : 0n;
  return {
    cidr: `${toAddr(network)}/${bits}`,
    version: v4 ? 4 : 6,
    prefix: bits,
    network: toAddr(network),
    broadcast: v4 ? toAddr(last) : null,
    netmask: v4 ? ipaddr.IPv4.subnetMaskFromPrefixLength(bits).toString() : ipaddr.IPv6.subnetMaskFromPrefixLength(bits).toString(),
    firstHost: toAddr(network + skip),
    lastHost: toAddr(last - skip),
    addresses: size.toString(),
    usableHosts: (size - 2n * skip).toString(),
    range: ipaddr.parse(toAddr(network)).range(),
  };
});

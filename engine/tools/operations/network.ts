import ipaddr from 'ipaddr.js';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

/** IP addresses and CIDR ranges (ipaddr.js, the parser the SSRF guard uses too). */

/** ipaddr.js range names, e.g. 'private', 'loopback', 'unicast' (= public). */
const isPublic = (range: string) => range === 'unicast';

export const ipCheck: Operation = ({ params }) => {
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
};

function parseCidr(cidr: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    return ipaddr.parseCIDR(String(cidr).trim());
  } catch {
    throw invalidParameter('cidr', 'is not CIDR notation (e.g. 192.168.0.0/16)');
  }
}

/** Subnet calculator: network, broadcast, first/last host and size of a CIDR range. */
export const subnet: Operation = ({ params }) => {
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
};

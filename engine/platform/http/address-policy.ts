import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a user-supplied URL may reach: public unicast only.
 * Everything else (loopback, RFC 1918, ULA, link-local with the cloud metadata
 * services, CGNAT, multicast, broadcast, unspecified, documentation, benchmarking
 * and reserved blocks) is refused, and IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, SIIT, NAT64, 6to4, Teredo) are judged by the IPv4 they carry, so
 * `::ffff:127.0.0.1` or `2002:7f00:1::` cannot smuggle in loopback.
 */

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Readable names for ipaddr.js range labels, used in refusal messages. */
const RANGE_NAMES: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
  uniqueLocal: 'private (unique local)',
  reserved: 'reserved',
  benchmarking: 'benchmarking',
  deprecatedSiteLocal: 'site-local',
  discard: 'discard-only',
};

/** 2000::/3, the only IPv6 block IANA hands out as global unicast. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
/** The well-known NAT64 prefix; its IPv4 sits in the last 32 bits. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

const v4FromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 addresses an IPv6 address delivers to, for the transition forms that embed one. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const p = address.parts;
  switch (range) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return [v4FromWords(p[6], p[7])];
    case 'rfc6052': // NAT64; the local-use /48 places the IPv4 by operator choice, so it has none we can trust
      return address.match(NAT64_WELL_KNOWN) ? [v4FromWords(p[6], p[7])] : undefined;
    case '6to4': // 2002:aabb:ccdd::/48
      return [v4FromWords(p[1], p[2])];
    case 'teredo': // 2001:0:server:flags:port:~client
      return [v4FromWords(p[2], p[3]), v4FromWords(~p[6] & 0xffff, ~p[7] & 0xffff)];
    default:
      return undefined;
  }
}

function problemOf(address: Address): string | undefined {
  const range = address.range();
  if (address.kind() === 'ipv4') return range === 'unicast' ? undefined : (RANGE_NAMES[range] ?? 'reserved');
  const v6 = address as ipaddr.IPv6;
  if (range === 'rfc6052' || range === 'ipv4Mapped' || range === 'rfc6145' || range === '6to4' || range === 'teredo') {
    const carried = embeddedIPv4(v6, range);
    if (!carried) return 'reserved';
    for (const v4 of carried) {
      const problem = problemOf(v4);
      if (problem) return `${problem} (embedded in IPv6)`;
    }
    return undefined;
  }
  if (range !== 'unicast') return RANGE_NAMES[range] ?? 'reserved';
  return v6.match(GLOBAL_UNICAST) ? undefined : 'reserved';
}

/**
 * Why `ip` must not be reached from a user-supplied URL ("loopback", "private", …),
 * or undefined when it is a public unicast address. Accepts every textual form
 * ipaddr.js parses, including decimal, octal and hex IPv4 (`2130706433`, `0177.0.0.1`, `0x7f.1`).
 */
export function nonPublicReason(ip: string): string | undefined {
  let address: Address;
  try {
    address = ipaddr.parse(ip);
  } catch {
    return 'not an IP address';
  }
  return problemOf(address);
}

/** True when `host` is an IP literal in any form ipaddr.js accepts (brackets allowed). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(stripBrackets(host));
}

export const stripBrackets = (host: string) => (host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);

/** The canonical text and family of an IP literal, e.g. `0x7f.1` → 127.0.0.1, family 4. */
export function canonicalIp(host: string): { address: string; family: 4 | 6 } {
  const address = ipaddr.parse(stripBrackets(host));
  return { address: address.toString(), family: address.kind() === 'ipv4' ? 4 : 6 };
}

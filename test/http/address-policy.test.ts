import t from 'tap';
import { canonicalIp, isIpLiteral, nonPublicReason } from '../../engine/platform/http/address-policy.js';

/** A subtest asserting each address is refused with its reason (plus `suffix`). */
function refuses(name: string, cases: Array<[ip: string, reason: string]>, suffix = '') {
  t.test(name, async (t) => {
    for (const [ip, reason] of cases) t.equal(nonPublicReason(ip), reason + suffix, ip);
  });
}

refuses('refuses every non-public IPv4 block', [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.1.2.3', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.100.100.200', 'carrier-grade NAT'], // Alibaba Cloud metadata
  ['169.254.169.254', 'link-local'], // AWS/GCP/Azure metadata
  ['169.254.0.1', 'link-local'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['192.0.0.170', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.51.100.1', 'reserved'],
  ['203.0.113.1', 'reserved'],
  ['198.18.0.1', 'reserved'], // benchmarking
  ['198.19.255.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
]);

refuses('refuses decimal, octal, hex and short IPv4 forms by what they mean', [
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  ['127.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['017700000001', 'loopback'],
  ['0x7f.0.0.1', 'loopback'],
  ['167772161', 'private'], // 10.0.0.1 as one number
  ['0xa9.0xfe.0xa9.0xfe', 'link-local'], // the metadata address in hex
]);

refuses('refuses every non-public IPv6 block', [
  ['::1', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'private (unique local)'],
  ['fd00:ec2::254', 'private (unique local)'], // AWS metadata over IPv6
  ['ff02::1', 'multicast'],
  ['fec0::1', 'site-local'],
  ['100::1', 'discard-only'],
  ['2001:db8::1', 'reserved'],
  ['2001:2::1', 'benchmarking'],
  ['64:ff9b:1::a00:1', 'reserved'], // local-use NAT64: the IPv4's place is the operator's choice
  ['::7f00:1', 'reserved'], // IPv4-compatible, outside 2000::/3
  ['4000::1', 'reserved'],
  ['3fff::1', 'reserved'],
]);

refuses(
  'judges IPv6 forms that carry an IPv4 address by that address',
  [
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:0:127.0.0.1', 'loopback'], // SIIT (RFC 6145)
    ['64:ff9b::127.0.0.1', 'loopback'], // NAT64
    ['64:ff9b::a00:1', 'private'],
    ['2002:7f00:1::', 'loopback'], // 6to4
    ['2002:c0a8:101::1', 'private'],
    ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'], // Teredo, client 127.0.0.1 (bits inverted)
    ['2001:0:a00:1::f7f7:f7f7', 'private'], // Teredo, server 10.0.0.1
  ],
  ' (embedded in IPv6)',
);

refuses('names what is not an address at all', [
  ['example.com', 'not an IP address'],
  ['', 'not an IP address'],
]);

t.test('allows public unicast, also when carried in IPv6', async (t) => {
  for (const ip of [
    '93.184.216.34',
    '8.8.8.8',
    '1.1.1.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:93.184.216.34',
    '64:ff9b::8.8.8.8',
    '2002:5db8:d822::1',
    '2001:0:4136:e378:8000:63bf:a247:2bdd',
  ]) {
    t.equal(nonPublicReason(ip), undefined, ip);
  }
});

t.test('IP literal helpers', async (t) => {
  t.ok(isIpLiteral('[::1]'));
  t.ok(isIpLiteral('127.0.0.1'));
  t.notOk(isIpLiteral('localhost'));
  t.same(canonicalIp('[::ffff:7f00:1]'), { address: '::ffff:7f00:1', family: 6 });
  t.same(canonicalIp('0x7f.1'), { address: '127.0.0.1', family: 4 });
});

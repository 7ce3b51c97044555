import t from 'tap';
import email from '../../engine/kinds/handlers/checker/email.js';
import dnsCheck from '../../engine/kinds/handlers/checker/dns.js';
import { startDnsServer } from './dns-server.js';
import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadUpstreamSpecs, UpstreamRegistry } from '../../engine/catalog/upstreams.js';
import { getServers } from 'node:dns';
import { parseServer, resolverFor } from '../../engine/features/tools/dns.js';

/** The shipped upstreams (dns, whois, …) read with this env: the handlers take their servers from them. */
const upstreamsFor = (env: Record<string, string>) => new UpstreamRegistry(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')), env);

const dns = await startDnsServer();
t.teardown(dns.close);
const input = (params: Record<string, unknown>, servers = dns.address) =>
  ({
    params,
    options: {},
    call: {} as any,
    setup: { config: { env: { DNS_SERVERS: servers } }, upstreams: upstreamsFor({ DNS_SERVERS: servers }) } as any,
  }) as any;
const checkEmail = (address: string) => email(input({ email: address, mx: true })) as Promise<any>;
const check = (domain: string, servers?: string) => dnsCheck(input({ domain }, servers)) as Promise<any>;

t.test('e-mail: MX records are looked up and sorted by priority', async (t) => {
  const result = await checkEmail('ada@example.test');
  t.same(result.mx, {
    checked: true,
    found: true,
    records: [
      { exchange: 'mail.example.test', priority: 10 },
      { exchange: 'backup.example.test', priority: 20 },
    ],
  });
  t.equal(result.valid, true);
});

t.test('e-mail: a domain that does not exist makes the address invalid', async (t) => {
  const result = await checkEmail('ada@missing.test');
  t.match(result.mx, { checked: true, found: false, records: [] });
  t.equal(result.valid, false);
});

t.test('e-mail: a DNS server that never answers times out as "unknown", not invalid', async (t) => {
  const result = await checkEmail('ada@slow.test');
  t.match(result.mx, { checked: false, found: null, error: 'ETIMEOUT' });
  t.equal(result.valid, true, 'syntax and disposable checks still decide');
});

t.test('dns-check: every record type with its own TTL, in the shape clients read', async (t) => {
  const result = await check('Example.test.');
  t.equal(result.domain, 'example.test');
  t.same(result.records, [
    { type: 'A', ttl: 3600, ip: '192.0.2.10' },
    { type: 'MX', ttl: 1800, target: 'mail.example.test', priority: 10 },
    { type: 'MX', ttl: 1800, target: 'backup.example.test', priority: 20 },
    { type: 'NS', ttl: 86400, target: 'ns1.example.test' },
    { type: 'TXT', ttl: 300, value: 'v=spf1 -all' },
  ]);
});

t.test("dns-check: an alias answers its CNAME, and its target's records capped by the alias's TTL", async (t) => {
  const result = await check('alias.test');
  t.same(
    result.records.filter((r: any) => r.type !== 'NS' && r.type !== 'TXT'),
    [
      { type: 'A', ttl: 60, ip: '192.0.2.10' },
      { type: 'CNAME', ttl: 60, target: 'example.test' },
      { type: 'MX', ttl: 60, target: 'mail.example.test', priority: 10 },
      { type: 'MX', ttl: 60, target: 'backup.example.test', priority: 20 },
    ],
  );
});

t.test('an answer too large for UDP comes back truncated and is asked again over TCP', async (t) => {
  dns.asked.length = 0;
  const result = await check('big.test');
  t.equal(result.records.length, 8);
  t.same(result.records[0], { type: 'TXT', ttl: 120, value: '0'.repeat(250) });
  t.same(
    dns.asked.filter((q) => q.endsWith('TXT')),
    ['udp big.test TXT', 'tcp big.test TXT'],
  );
});

t.test('a server that refuses EDNS (FORMERR) is asked again without it', async (t) => {
  const records = await resolverFor(upstreamsFor({ DNS_SERVERS: dns.address })).resolve('old.test', 'A');
  t.same(records, [{ ttl: 600, data: '192.0.2.20' }]);
});

t.test('dns-check: no such domain is 404; an unreachable resolver is 502', async (t) => {
  await t.rejects(check('missing.test'), { status: 404, code: 'not_found' });
  await t.rejects(check('slow.test'), { status: 502, code: 'upstream_error', message: /ETIMEOUT/ });
  await t.rejects(check('example.test', '127.0.0.1:9'), { status: 502, code: 'upstream_error', message: /ECONNREFUSED/ });
  await t.rejects(check('broken.test'), { status: 502, code: 'upstream_error', message: /ESERVFAIL/ });
});

t.test('resolvers are asked in order: a closed, refusing or failing one hands over to the next', async (t) => {
  const refusing = await startDnsServer({ refuseAll: true });
  t.teardown(refusing.close);
  const started = Date.now();
  const result = await check('example.test', `127.0.0.1:9, ${refusing.address},${dns.address}`);
  t.equal(result.records.length, 5);
  t.ok(Date.now() - started < 2000, 'a closed port fails at once, without waiting out the budget');
  t.ok(refusing.asked.length > 0, 'the refusing server was asked first');
  await t.rejects(check('example.test', `${refusing.address}`), { status: 502, message: /EREFUSED/ });
  t.equal((await check('missing.test', `${dns.address},${refusing.address}`).catch((err) => err)).status, 404, 'NXDOMAIN is an answer: no next server');
});

t.test("resolver addresses: DNS_SERVERS entries, else the system's", async (t) => {
  t.same(parseServer(' 192.0.2.1 '), { host: '192.0.2.1', port: 53 });
  t.same(parseServer('192.0.2.1:5353'), { host: '192.0.2.1', port: 5353 });
  t.same(parseServer('2001:db8::1'), { host: '2001:db8::1', port: 53 });
  t.same(parseServer('[2001:db8::1]:5353'), { host: '2001:db8::1', port: 5353 });
  for (const bad of ['dns.example', '192.0.2.1:0', '192.0.2.1:99999', '[2001:db8::1', '']) t.throws(() => parseServer(bad), /not an IP address/, bad);
  t.same(resolverFor(upstreamsFor({})).servers, getServers().map(parseServer), 'unset: the ones Node read from /etc/resolv.conf');
  t.same(resolverFor(upstreamsFor({ DNS_SERVERS: '192.0.2.1, 192.0.2.2:5353' })).servers, [
    { host: '192.0.2.1', port: 53 },
    { host: '192.0.2.2', port: 5353 },
  ]);
});

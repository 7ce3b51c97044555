import t from 'tap';
import email from '../../engine/handlers/checker/email.js';
import dnsCheck from '../../engine/handlers/checker/dns.js';
import { startDnsServer } from './dns-server.js';
import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app.js';
import { loadUpstreamSpecs, UpstreamRegistry } from '../../engine/upstreams.js';

/** The shipped upstreams (dns, whois, …) read with this env: the handlers take their servers from them. */
const upstreamsFor = (env: Record<string, string>) => new UpstreamRegistry(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')), env);

const dns = await startDnsServer();
t.teardown(dns.close);
const input = (params: Record<string, unknown>) =>
  ({
    params,
    options: {},
    call: {} as any,
    setup: { config: { env: { DNS_SERVERS: dns.address } }, upstreams: upstreamsFor({ DNS_SERVERS: dns.address }) } as any,
  }) as any;
const checkEmail = (address: string) => email(input({ email: address, mx: true })) as Promise<any>;

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

t.test('dns-check: every record type, in the shape clients read', async (t) => {
  const result = (await dnsCheck(input({ domain: 'Example.test.' }))) as any;
  t.equal(result.domain, 'example.test');
  t.same(result.records, [
    { type: 'A', ttl: 3600, ip: '192.0.2.10' },
    { type: 'MX', target: 'mail.example.test', priority: 10 },
    { type: 'MX', target: 'backup.example.test', priority: 20 },
    { type: 'NS', target: 'ns1.example.test' },
    { type: 'TXT', value: 'v=spf1 -all' },
  ]);
});

t.test('dns-check: no such domain is 404; an unreachable resolver is 502', async (t) => {
  await t.rejects(dnsCheck(input({ domain: 'missing.test' })) as Promise<unknown>, { status: 404, code: 'not_found' });
  await t.rejects(dnsCheck(input({ domain: 'slow.test' })) as Promise<unknown>, { status: 502, code: 'upstream_error' });
});

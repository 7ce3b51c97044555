/**
 * The harness's DNS and WHOIS fixture servers: answers from `dns` / `whois` fixtures,
 * what counts as used or unmatched (with the example's own fixture indexes), and the
 * WHOIS discovery path running against the local server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { Resolver } from 'node:dns/promises';
import t from 'tap';
import type { Fixture } from '../engine/core/manifest-types.js';
import whois from '../engine/kinds/handlers/checker/whois.js';
import { ENDPOINTS_DIR } from '../engine/app/app.js';
import { loadUpstreamSpecs, UpstreamRegistry } from '../engine/catalog/upstreams.js';
import { startFixtureDns } from './support/fixture-dns.js';
import { startFixtureWhois } from './support/fixture-whois.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifold-fixture-servers-'));
fs.mkdirSync(path.join(dir, 'fixtures'));
const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, 'fixtures', name), text);
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

const errorCode = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered',
    (err: NodeJS.ErrnoException) => err.code,
  );

t.test('DNS: records from the example fixtures, NXDOMAIN for the rest', async (t) => {
  const dns = await startFixtureDns();
  t.teardown(dns.close);
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.address]);
  write('zone.yaml', 'MX:\n  - { preference: 20, exchange: backup.example.test }\n  - { preference: 10, exchange: mail.example.test }\n');
  const fixtures: Fixture[] = [
    { upstream: 'wikipedia', path: '/x', json: {} },
    {
      upstream: 'dns',
      path: 'Example.TEST.',
      json: { A: ['192.0.2.10', '192.0.2.11'], AAAA: ['2001:db8::1'], TXT: ['v=spf1 -all', ['split ', 'string']], NS: ['ns1.example.test'] },
    },
    { upstream: 'dns', path: 'mail.example.test', file: 'fixtures/zone.yaml' },
    { upstream: 'dns', path: 'unasked.example.test', json: { A: ['192.0.2.99'] } },
  ];
  dns.use(fixtures, dir);

  t.same(await resolver.resolve4('example.test', { ttl: true }), [
    { address: '192.0.2.10', ttl: 300 },
    { address: '192.0.2.11', ttl: 300 },
  ]);
  t.same(await resolver.resolve6('EXAMPLE.test'), ['2001:db8::1'], 'names compare without case');
  t.same(await resolver.resolveTxt('example.test'), [['v=spf1 -all'], ['split ', 'string']]);
  t.same(await resolver.resolveNs('example.test'), ['ns1.example.test']);
  t.same(
    // Node 24 adds `type: 'MX'` to each record: compare what every line answers
    (await resolver.resolveMx('mail.example.test')).map(({ exchange, priority }) => ({ exchange, priority })),
    [
      { exchange: 'backup.example.test', priority: 20 },
      { exchange: 'mail.example.test', priority: 10 },
    ],
    'a YAML zone file',
  );
  t.equal(await errorCode(resolver.resolveMx('example.test')), 'ENODATA', 'a listed name without that type: no data');
  t.equal(await errorCode(resolver.resolve4('missing.example.test')), 'ENOTFOUND', 'an unlisted name does not exist');
  t.same(dns.hits(), { used: new Set([1, 2]), unmatched: [] }, "used fixtures by the example's own index; NXDOMAIN is no unmatched request");

  dns.use([], dir);
  t.equal(await errorCode(resolver.resolve4('example.test')), 'ENOTFOUND', 'the next example starts with no records');
  t.same(dns.hits().used, new Set());
});

t.test('DNS: response codes and fixtures it cannot serve', async (t) => {
  const dns = await startFixtureDns();
  t.teardown(dns.close);
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([dns.address]);
  dns.use(
    [
      { upstream: 'dns', path: 'broken.test', json: { rcode: 'SERVFAIL' } },
      { upstream: 'dns', path: 'typo.test', json: { a: ['192.0.2.1'] } },
      { upstream: 'dns', path: 'huge.test', json: { TXT: Array.from({ length: 20 }, (_, i) => `${i % 10}`.repeat(250)) } },
      { upstream: 'dns', path: 'bad-rcode.test', json: { rcode: 'MAYBE' } },
    ],
    dir,
  );
  t.equal(await errorCode(resolver.resolve4('broken.test')), 'ESERVFAIL', 'rcode answers that code');
  t.equal(await errorCode(resolver.resolve4('typo.test')), 'ESERVFAIL');
  t.not(await errorCode(resolver.resolveTxt('huge.test')), 'answered', 'an answer too large for UDP is not sent');
  t.equal(await errorCode(resolver.resolve4('bad-rcode.test')), 'ESERVFAIL');
  const { unmatched } = dns.hits();
  t.match(unmatched, [
    /^dns typo\.test A: bad fixture \(a is not a record type/,
    /^dns huge\.test TXT: an answer of \d+ bytes does not fit/,
    /^dns bad-rcode\.test A: bad fixture \(rcode MAYBE/,
  ]);
  t.equal(unmatched.length, 3, 'each unservable fixture is reported (an rcode fixture is not)');
});

/** One raw WHOIS exchange: the query line out, everything until the server closes back. */
function ask(address: string, query: string): Promise<string> {
  const [host, port] = address.split(':');
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect({ host, port: Number(port) }, () => socket.end(`${query}\r\n`));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

t.test('WHOIS: a query answered from its fixture file, nothing else answered', async (t) => {
  const server = await startFixtureWhois();
  t.teardown(server.close);
  write('example.txt', 'Domain Name: EXAMPLE.TEST\r\nRegistrar WHOIS Server: ${whoisServer}\r\n');
  server.use(
    [
      { upstream: 'dns', path: 'example.test', json: {} },
      { upstream: 'whois', path: 'example.test', file: 'fixtures/example.txt' },
      { upstream: 'whois', path: 'inline.test', json: 'Domain Name: INLINE.TEST' },
      { upstream: 'whois', path: 'gone.test', file: 'fixtures/missing.txt' },
      { upstream: 'whois', path: 'never.test', file: 'fixtures/example.txt' },
    ],
    dir,
  );
  t.equal(
    await ask(server.address, 'EXAMPLE.test'),
    `Domain Name: EXAMPLE.TEST\r\nRegistrar WHOIS Server: ${server.address}\r\n`,
    '${whoisServer} becomes the address',
  );
  t.equal(await ask(server.address, 'other.test'), '', 'an unlisted query gets no answer');
  t.equal(await ask(server.address, 'inline.test'), '', 'only a file answers');
  t.equal(await ask(server.address, 'gone.test'), '', 'a missing file answers nothing');
  const { used, unmatched } = server.hits();
  t.same(used, new Set([1, 2, 3]), "used fixtures by the example's own index");
  t.match(unmatched, ['whois other.test', 'whois inline.test: a WHOIS fixture answers with a text file', /^whois gone\.test: ENOENT/]);
  t.equal(unmatched.length, 3);
  server.use([], dir);
  t.same(server.hits(), { used: new Set(), unmatched: [] }, 'the next example starts afresh');
});

t.test('WHOIS: IANA discovery referred back to the fixture server', async (t) => {
  const server = await startFixtureWhois();
  t.teardown(server.close);
  write('iana-test.txt', 'domain:       TEST\nrefer:        ${whoisServer}\n');
  write('registry.txt', 'Domain Name: FOUND.TEST\nRegistrar: Fixture Registrar\nCreation Date: 2001-02-03T04:05:06Z\nName Server: NS1.FOUND.TEST\n');
  server.use(
    [
      { upstream: 'whois', path: 'test', file: 'fixtures/iana-test.txt' },
      { upstream: 'whois', path: 'found.test', file: 'fixtures/registry.txt' },
    ],
    dir,
  );
  const call = { signal: new AbortController().signal } as any;
  // the shipped whois upstream, its discovery server pointed at the fixture server
  const env = { WHOIS_IANA_SERVER: server.address };
  const upstreams = new UpstreamRegistry(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')), env);
  const record = (await whois({ params: { domain: 'found.test' }, options: {}, call, setup: { config: { env }, upstreams } as any })) as Record<
    string,
    unknown
  >;
  t.match(record, {
    domainName: 'found.test',
    registered: true,
    registrar: 'Fixture Registrar',
    creationDate: '2001-02-03T04:05:06Z',
    nameServers: ['ns1.found.test'],
    server: server.address,
  });
  t.same(server.hits(), { used: new Set([0, 1]), unmatched: [] }, 'both steps asked the fixture server');
});

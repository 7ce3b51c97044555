import net from 'node:net';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import whois from '../../engine/kinds/handlers/checker/whois.js';
import path from 'node:path';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadUpstreamSpecs, UpstreamRegistry } from '../../engine/catalog/upstreams.js';

/** The shipped upstreams (dns, whois, …) read with this env: the handlers take their servers from them. */
const upstreamsFor = (env: Record<string, string>) => new UpstreamRegistry(loadUpstreamSpecs(path.join(ENDPOINTS_DIR, 'upstreams')), env);

/** A WHOIS server on a random port that answers from a table (and records the queries). */
async function whoisServer(answers: Record<string, string>) {
  const queries: string[] = [];
  const server = net.createServer((socket) => {
    socket.once('data', (data) => {
      const q = data.toString().trim();
      queries.push(q);
      socket.end(answers[q] ?? 'No match for domain "' + q.toUpperCase() + '".\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, queries, close: () => new Promise((r) => server.close(r)) };
}

const RECORD = [
  '   Domain Name: EXAMPLE.TEST',
  '   Registrar WHOIS Server: whois.registrar.test',
  '   Updated Date: 2024-08-14T07:01:34Z',
  '   Creation Date: 1995-08-14T04:00:00Z',
  '   Registry Expiry Date: 2025-08-13T04:00:00Z',
  '   Registrar: RESERVED-Internet Assigned Numbers Authority',
  '   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited',
  '   Name Server: A.IANA-SERVERS.NET',
  '   Name Server: B.IANA-SERVERS.NET',
  '>>> Last update of whois database: 2024-09-01T00:00:00Z <<<',
].join('\r\n');

const server = await whoisServer({ 'example.test': RECORD });
t.teardown(server.close);
const lookup = (domain: string, env: Record<string, string> = { WHOIS_SERVER: server.address }) =>
  whois({
    params: { domain },
    options: {},
    call: { signal: new AbortController().signal } as any,
    setup: { config: { env }, upstreams: upstreamsFor(env) } as any,
  }) as Promise<any>;

t.test('a registered domain, parsed into the fields clients read', async (t) => {
  const r = await lookup('Example.test');
  t.match(r, {
    domainName: 'example.test',
    registered: true,
    registrar: 'RESERVED-Internet Assigned Numbers Authority',
    creationDate: '1995-08-14T04:00:00Z',
    expirationDate: '2025-08-13T04:00:00Z',
    created: '1995-08-14T04:00:00Z',
    expires: '2025-08-13T04:00:00Z',
    updatedDate: '2024-08-14T07:01:34Z',
    nameServers: ['a.iana-servers.net', 'b.iana-servers.net'],
    status: ['clientDeleteProhibited'],
  });
  t.match(r.raw, /^Domain Name: EXAMPLE\.TEST/);
  t.equal(server.queries.at(-1), 'example.test', 'the query is the domain itself');
});

t.test('an unregistered domain', async (t) => {
  const r = await lookup('free.test');
  t.equal(r.registered, false);
  t.equal(r.registrar, null);
});

t.test('an unreachable server is a 502', async (t) => {
  await t.rejects(lookup('example.test', { WHOIS_SERVER: '127.0.0.1:9' }), { status: 502, code: 'upstream_error' });
});

t.test('discovery: IANA names the registry for the TLD, which is then asked', async (t) => {
  const iana = await whoisServer({ test: `domain:       TEST\r\nrefer:        ${server.address}\r\n` });
  t.teardown(iana.close);
  const r = await lookup('example.test', { WHOIS_IANA_SERVER: iana.address });
  t.same(iana.queries, ['test'], 'IANA is asked for the TLD only');
  t.equal(r.server, server.address);
  t.equal(r.registrar, 'RESERVED-Internet Assigned Numbers Authority', 'the unreachable registrar referral falls back to the registry answer');
});

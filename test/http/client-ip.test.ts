/**
 * The client's address (engine/platform/http/client-ip.ts): X-Forwarded-For is believed only from
 * the proxies TRUST_PROXY names, and the rate limits and the access log use the result.
 */
import type { IncomingMessage } from 'node:http';
import t, { type Test } from 'tap';
import { clientIpResolver, parseTrustProxy } from '../../engine/platform/http/client-ip.js';
import { loadConfig } from '../../engine/platform/config.js';
import { serve } from '../support/serve.js';
import { testEndpoints } from '../engine/test-endpoints.js';

const request = (peer: string, forwarded?: string) =>
  ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as IncomingMessage;

t.test('TRUST_PROXY: unset, a hop count or a list of addresses; anything else stops the boot naming it', async (t) => {
  t.equal(parseTrustProxy(undefined), undefined);
  t.equal(parseTrustProxy(''), undefined);
  t.equal(parseTrustProxy('0'), undefined);
  t.same(parseTrustProxy('2'), { hops: 2 });
  t.same(parseTrustProxy('10.0.0.0/8, 127.0.0.1,loopback'), { proxies: ['10.0.0.0/8', '127.0.0.1', 'loopback'] });
  t.throws(() => parseTrustProxy('10.0.0.0/99'), /^TRUST_PROXY must be/);
  t.throws(() => parseTrustProxy('nginx'), /TRUST_PROXY must be a number of proxy hops or a comma-separated list/);
  t.throws(() => loadConfig({ TRUST_PROXY: 'yes' }), /TRUST_PROXY/);
});

t.test('without TRUST_PROXY the direct peer is the client, whatever header it sends', async (t) => {
  const ip = clientIpResolver(undefined);
  t.equal(ip(request('203.0.113.7', '6.6.6.6')), '203.0.113.7');
  t.equal(ip(request('::ffff:203.0.113.7')), '203.0.113.7', 'an IPv4 client on a dual-stack socket is one address');
});

t.test('a list: the header is read only past trusted proxies, right to left', async (t) => {
  const ip = clientIpResolver(parseTrustProxy('10.0.0.0/8,127.0.0.1'));
  t.equal(ip(request('127.0.0.1', '198.51.100.4')), '198.51.100.4', 'from the trusted proxy: the address it appended');
  t.equal(ip(request('127.0.0.1', '6.6.6.6, 198.51.100.4')), '198.51.100.4', 'what the client claimed before the proxy is not believed');
  t.equal(ip(request('127.0.0.1', '198.51.100.4, 10.1.2.3')), '198.51.100.4', 'a chain of trusted proxies is walked');
  t.equal(ip(request('203.0.113.9', '6.6.6.6')), '203.0.113.9', 'spoofed from an untrusted peer: ignored');
  t.equal(ip(request('127.0.0.1', 'not-an-address')), '127.0.0.1', 'an entry that is no address names no one');
  t.equal(ip(request('127.0.0.1')), '127.0.0.1', 'no header: the proxy itself');
});

t.test('a hop count: that many proxies in front, whatever their address', async (t) => {
  const ip = clientIpResolver(parseTrustProxy('1'));
  t.equal(ip(request('172.18.0.5', '6.6.6.6, 198.51.100.4')), '198.51.100.4', 'the address the one proxy appended');
  t.equal(clientIpResolver(parseTrustProxy('2'))(request('172.18.0.5', '6.6.6.6, 198.51.100.4')), '6.6.6.6');
});

/** An engine with the access log collected, a public endpoint budgeted at 2 requests a minute per address. */
async function engineWith(t: Test, trustProxy?: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = { info: (fields: Record<string, unknown>) => void lines.push(fields), error: () => {} };
  const { endpoints } = testEndpoints();
  const served = await serve({ TRUST_PROXY: trustProxy, LOG_REQUESTS: '1', PERSONAL_KEY_RPM: '2' }, { endpoints, logger });
  t.teardown(() => served.close());
  const call = (forwarded: string) => fetch(`${served.url}/api/test/open`, { headers: { 'X-Forwarded-For': forwarded, 'User-Agent': 'ip-test/1' } });
  return { lines, call };
}

t.test('from an untrusted peer a spoofed X-Forwarded-For changes neither the budget nor the log', async (t) => {
  // the test's requests come from 127.0.0.1, which this host does not trust
  const { lines, call } = await engineWith(t, '10.0.0.0/8');
  t.equal((await call('6.6.6.1')).status, 200);
  t.equal((await call('6.6.6.2')).status, 200);
  t.equal((await call('6.6.6.3')).status, 429, 'three "clients", one address, one budget of 2');
  const logged = lines.filter((l) => l.url === '/api/test/open');
  t.same(
    logged.map((l) => l.ip),
    ['127.0.0.1', '127.0.0.1', '127.0.0.1'],
  );
  t.equal(logged[0]!.userAgent, 'ip-test/1');
});

t.test('from a trusted proxy each forwarded client has its own budget and its own address in the log', async (t) => {
  const { lines, call } = await engineWith(t, '127.0.0.1');
  for (const client of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) t.equal((await call(client)).status, 200, client);
  t.equal((await call('198.51.100.1')).status, 200);
  t.equal((await call('198.51.100.1')).status, 429, "the first client's own budget of 2 is spent");
  t.same(
    lines.filter((l) => l.url === '/api/test/open').map((l) => l.ip),
    ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.1', '198.51.100.1'],
  );
});

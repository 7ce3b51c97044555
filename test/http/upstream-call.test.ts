import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createHttpClient } from '../../engine/platform/http/client.js';
import { UpstreamRegistry, type UpstreamSpec } from '../../engine/catalog/upstreams.js';
import { serve } from './local-server.js';

const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.manifold.test' });
const http = createHttpClient(config, { retryBaseMs: 20 });

t.test('one object builds every upstream call: base URL, keys, merged query and headers, timeout policy', async (t) => {
  const server = await serve(t, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url!.includes('/slow')) return void setTimeout(() => res.end('{}'), 1500);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  const specs: UpstreamSpec[] = [
    {
      name: 'svc',
      description: 'a service',
      baseUrl: { env: 'SVC_URL' },
      requires: ['SVC_KEY'],
      headers: { Authorization: 'Bearer ${SVC_KEY}' },
      query: { key: '${SVC_KEY}' },
      timeoutMs: 300,
    },
    { name: 'keyless', description: 'no key', baseUrl: { env: 'KEYLESS_URL', default: `${server.origin}/` } },
    { name: 'off', description: 'not configured', baseUrl: { env: 'OFF_URL' }, requires: ['OFF_KEY'] },
  ];
  const upstreams = new UpstreamRegistry(specs, { SVC_URL: `${server.origin}/v1/`, SVC_KEY: 'k1' }, http);

  type Echo = { method: string; url: string; headers: Record<string, string>; body: string };
  const get = await upstreams.call<Echo>('svc', { path: '/search', query: { q: 'a b', page: 2, skip: undefined }, headers: { 'x-extra': '1' } });
  t.equal(get.url, '/v1/search?key=k1&q=a+b&page=2', 'base URL without its trailing slash, the spec query (key) then the call query');
  t.equal(get.headers.authorization, 'Bearer k1', 'the spec headers');
  t.equal(get.headers['x-extra'], '1', 'merged with the call headers');
  const post = await upstreams.call<Echo>('keyless', { path: '/echo', method: 'POST', json: { a: 1 } });
  t.same([post.method, post.url, JSON.parse(post.body)], ['POST', '/echo', { a: 1 }]);
  t.equal(await upstreams.text('keyless', { path: '/t' }).then((text) => JSON.parse(text).url), '/t');
  t.equal((await upstreams.buffer('keyless', { path: '/b' })).body.length > 0, true);

  // the spec's timeout is the default budget; a call may set its own
  await t.rejects(upstreams.call('svc', { path: '/slow', retries: 0 }), { status: 504, code: 'upstream_timeout' });
  t.same(await upstreams.call('svc', { path: '/slow', timeoutMs: 5000 }), {});

  t.equal(upstreams.unavailable('svc'), undefined);
  t.equal(upstreams.unavailable('off'), 'off: OFF_URL, OFF_KEY not set');
  t.equal(upstreams.unavailable('nope'), 'unknown upstream nope');
  await t.rejects(async () => upstreams.call('off', { path: '/x' }), { status: 503, code: 'unavailable', message: /OFF_URL, OFF_KEY not set/ });
  t.equal(upstreams.request('svc', {}).timeoutMs, 300);
  t.equal(upstreams.request('keyless', {}).timeoutMs, 8000, 'no spec timeout: the default');
  t.equal(upstreams.request('svc', { limitMs: 100 }).timeoutMs, 100, "the caller's own limit caps the policy");
  t.equal(upstreams.request('svc', { limitMs: 15000 }).timeoutMs, 300, 'and never raises it');

  // bare flags: written into the URL after the query, which got would otherwise turn into `name=`
  const flagged = await upstreams.call<Echo>('svc', { path: '/joke', query: { type: 'single' }, flags: ['safe-mode'] });
  t.equal(flagged.url, '/v1/joke?key=k1&type=single&safe-mode');
  t.equal(upstreams.request('svc', { path: '/joke', flags: ['safe-mode'] }).searchParams, undefined);
});

t.test('notFound: an upstream 404 (or a listed status) is a 404 not_found with the given message; other answers pass through', async (t) => {
  const server = await serve(t, (req, res) => {
    const status = Number(/\/status\/(\d+)/.exec(req.url!)?.[1] ?? 200);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ status }));
  });
  const upstreams = new UpstreamRegistry([{ name: 'items', description: 'items', baseUrl: { env: 'ITEMS_URL', default: server.origin } }], {}, http);
  const missing = { status: 404, code: 'not_found', message: 'No such item' };

  await t.rejects(upstreams.call('items', { path: '/status/404', notFound: 'No such item' }), missing, 'call');
  await t.rejects(upstreams.text('items', { path: '/status/404', notFound: 'No such item' }), missing, 'text');
  await t.rejects(upstreams.buffer('items', { path: '/status/404', notFound: 'No such item' }), missing, 'buffer');
  await t.rejects(upstreams.stream('items', { path: '/status/404', notFound: 'No such item' }), missing, 'stream');
  await t.rejects(upstreams.call('items', { path: '/status/404' }), { status: 502, code: 'upstream_error' }, 'without the option: a 502 as before');
  await t.rejects(
    upstreams.call('items', { path: '/status/400', notFound: 'No such item' }),
    { status: 502, code: 'upstream_error' },
    'another 4xx stays a 502',
  );
  await t.rejects(upstreams.call('items', { path: '/status/400', notFound: 'No such item', notFoundStatuses: [400] }), missing, 'unless listed');
  await t.rejects(
    upstreams.call('items', { path: '/status/503', notFound: 'No such item', retries: 0 }),
    { status: 502, code: 'upstream_error' },
    'a failing upstream is no "not found"',
  );
  t.same(await upstreams.call('items', { path: '/status/200', notFound: 'No such item' }), { status: 200 }, 'a 200 is untouched');
  t.equal(await upstreams.text('items', { path: '/status/200', notFound: 'No such item' }), '{"status":200}');
});

t.test('dns and whois are upstreams with servers by role instead of a base URL', async (t) => {
  const specs: UpstreamSpec[] = [
    { name: 'dns', protocol: 'dns', description: 'resolvers', servers: { resolvers: { env: 'DNS_SERVERS' } }, timeoutMs: 3000 },
    {
      name: 'whois',
      protocol: 'whois',
      description: 'whois',
      servers: { discovery: { env: 'WHOIS_IANA_SERVER', default: 'whois.iana.org' }, direct: { env: 'WHOIS_SERVER' } },
    },
  ];
  const system = new UpstreamRegistry(specs, {}, http);
  t.same(system.servers('dns'), { servers: { resolvers: undefined }, timeoutMs: 3000 }, "unset: the system's resolvers");
  t.same(system.servers('whois').servers, { discovery: 'whois.iana.org', direct: undefined });
  t.equal(system.unavailable('dns'), undefined, 'always callable');
  t.throws(() => system.request('dns', {}), /speaks dns, not HTTP/);

  const configured = new UpstreamRegistry(specs, { DNS_SERVERS: '127.0.0.1:5353', WHOIS_SERVER: '127.0.0.1:4343' }, http);
  t.equal(configured.servers('dns').servers.resolvers, '127.0.0.1:5353');
  t.equal(configured.servers('whois').servers.direct, '127.0.0.1:4343');
  t.equal(configured.servers('whois').timeoutMs, 8000, 'no spec timeout: the default');
});

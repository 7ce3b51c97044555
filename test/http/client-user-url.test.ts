import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { nonPublicReason } from '../../engine/platform/http/address-policy.js';
import { createHttpClient } from '../../engine/platform/http/client.js';
import { createSsrfGuard, type ResolvedAddress, type Resolver } from '../../engine/platform/http/ssrf-guard.js';
import { serve, until, type Handler } from './local-server.js';

const blockedConfig = loadConfig({});
const openConfig = loadConfig({ ALLOW_PRIVATE_URLS: '1' });

const ALLOWED: ResolvedAddress = { address: '127.0.0.1', family: 4 };
const FORBIDDEN: ResolvedAddress = { address: '127.0.0.2', family: 4 };

/**
 * The honest stand-in for "the public internet": a policy that treats exactly
 * 127.0.0.1 as public and keeps the default rules for everything else, and a
 * resolver for made-up names. A server on 127.0.0.2 plays the internal service
 * an attacker aims at; it must never see a request.
 */
function guardedClient(resolver: Resolver) {
  const guard = createSsrfGuard({
    allowPrivate: false,
    resolver,
    addressProblem: (ip) => (ip === ALLOWED.address ? undefined : nonPublicReason(ip)),
  });
  return createHttpClient(blockedConfig, { guard, retryBaseMs: 20 });
}

const table =
  (answers: Record<string, ResolvedAddress[]>): Resolver =>
  async (host) =>
    answers[host] ?? Promise.reject(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }));

/** The "public" server on 127.0.0.1 and the internal one on 127.0.0.2, on one port. */
async function publicAndInternal(t: { teardown(fn: () => unknown): void }, handler: Handler) {
  const outside = await serve(t, handler, ALLOWED.address);
  const inside = await serve(t, (_req, res) => res.end('internal secrets'), FORBIDDEN.address, outside.port);
  return { outside, inside, port: outside.port };
}

t.test('private addresses are refused before any request unless ALLOW_PRIVATE_URLS=1', async (t) => {
  const server = await serve(t, (req, res) => {
    res.setHeader('content-type', 'image/png');
    res.end(`accept=${req.headers.accept}`);
  });
  const blocked = createHttpClient(blockedConfig);
  await t.rejects(blocked.fetchUserUrl(`${server.origin}/a.png`, { param: 'image', timeoutMs: 5000, maxBytes: 1000 }), {
    status: 400,
    code: 'unsupported_url',
    message: 'Unsupported URL in image: loopback address',
    details: [{ param: 'image', problem: 'loopback address' }],
  });
  await t.rejects(blocked.streamUserUrl(`http://localhost:${server.port}/`, { timeoutMs: 5000, maxBytes: 1000 }), {
    code: 'unsupported_url',
    details: [{ param: 'url' }],
  });
  t.equal(server.requests.length, 0, 'nothing reached the server');

  const open = createHttpClient(openConfig);
  const url = `http://user:s3cret@127.0.0.1:${server.port}/a.png`;
  const file = await open.fetchUserUrl(url, { timeoutMs: 5000, maxBytes: 1000, accept: 'image/*' });
  t.equal(file.body.toString(), 'accept=image/*');
  t.equal(file.contentType, 'image/png');
  t.equal(file.finalUrl, `${server.origin}/a.png`, 'credentials are not handed back');
  await t.rejects(open.fetchUserUrl('file:///etc/passwd', { timeoutMs: 5000, maxBytes: 1000 }), {
    code: 'unsupported_url',
  });
});

t.test('a redirect to an internal address is refused, however it is spelled', async (t) => {
  const { outside, inside, port } = await publicAndInternal(t, (req, res) => {
    const targets: Record<string, string> = {
      '/to-literal': `http://127.0.0.2:${port}/`,
      '/to-short': `http://127.2:${port}/`, // 127.0.0.2
      '/to-mapped': `http://[::ffff:127.0.0.2]:${port}/`,
      '/to-name': `http://internal.test:${port}/`,
      '/to-file': 'file:///etc/passwd',
      '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
    };
    if (targets[req.url!]) {
      res.statusCode = 302;
      res.setHeader('location', targets[req.url!]);
      return res.end();
    }
    res.end('public file');
  });
  const client = guardedClient(table({ 'public.test': [ALLOWED], 'internal.test': [FORBIDDEN] }));
  const opts = { param: 'src', timeoutMs: 5000, maxBytes: 1000 };
  const ok = await client.fetchUserUrl(`http://public.test:${port}/file`, opts);
  t.equal(ok.body.toString(), 'public file', 'the allowed host is reachable');
  t.equal(ok.finalUrl, `http://public.test:${port}/file`);

  for (const path of ['/to-literal', '/to-short', '/to-mapped', '/to-name', '/to-file', '/to-metadata']) {
    await t.rejects(
      client.fetchUserUrl(`http://public.test:${port}${path}`, opts),
      { status: 400, code: 'unsupported_url', details: [{ param: 'src' }] },
      path,
    );
  }
  await t.rejects(client.streamUserUrl(`http://public.test:${port}/to-literal`, opts), { code: 'unsupported_url' });
  t.equal(inside.requests.length, 0, 'the internal server never saw a request');
  t.equal(outside.requests.length, 8);
});

t.test('DNS rebinding: the connection goes only to an address that was checked', async (t) => {
  const { outside, inside, port } = await publicAndInternal(t, (_req, res) => res.end('public'));
  let answers = 0;
  // The first answer (seen by the up-front check) is allowed, later ones point inside.
  const client = guardedClient(async () => (answers++ === 0 ? [ALLOWED] : [FORBIDDEN]));
  await t.rejects(client.fetchUserUrl(`http://rebind.test:${port}/`, { timeoutMs: 5000, maxBytes: 1000 }), {
    code: 'unsupported_url',
    message: /host resolves to a loopback address/,
  });
  t.ok(answers >= 2, 'the socket resolved again instead of trusting the first answer');
  t.equal(inside.requests.length, 0);
  t.equal(outside.requests.length, 0);
});

t.test('user files over the limit are the caller’s 400, buffered or streamed', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/sized') return res.end(Buffer.alloc(2000));
    res.write(Buffer.alloc(600));
    res.write(Buffer.alloc(600)); // chunked and left open: the cap must end it
  });
  const client = createHttpClient(openConfig);
  const problem = { status: 400, code: 'invalid_parameter', message: 'Invalid parameter file: file too large (limit 1000 bytes)' };
  const opts = { param: 'file', timeoutMs: 5000, maxBytes: 1000 };
  await t.rejects(client.fetchUserUrl(`${server.origin}/sized`, opts), problem);
  await t.rejects(client.fetchUserUrl(`${server.origin}/open`, opts), problem);
  await until(() => server.abandoned === 1);
  const streamed = await client.streamUserUrl(`${server.origin}/open`, opts);
  const failure = await new Promise((resolve) => {
    streamed.body.on('error', resolve).resume();
  });
  t.match(failure, problem);
  await until(() => server.abandoned === 2);
  t.pass('the upstream connection was closed each time');
  const fits = await client.streamUserUrl(`${server.origin}/sized`, { ...opts, maxBytes: 2000 });
  t.equal(fits.contentLength, 2000);
});

t.test('user URL failures name the host, never the URL', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url?.startsWith('/missing')) {
      res.statusCode = 404;
      return res.end();
    }
    if (req.url === '/loop') {
      res.statusCode = 301;
      res.setHeader('location', '/loop');
      return res.end();
    }
    // /slow: never answers
  });
  const client = createHttpClient(openConfig);
  const host = `127.0.0.1:${server.port}`;
  await t.rejects(client.fetchUserUrl(`${server.origin}/missing?token=SECRET`, { timeoutMs: 5000, maxBytes: 1000 }), {
    status: 502,
    message: `Upstream ${host} failed: HTTP 404`,
  });
  await t.rejects(client.fetchUserUrl(`${server.origin}/slow`, { timeoutMs: 100, maxBytes: 1000 }), {
    status: 504,
    code: 'upstream_timeout',
    message: `Upstream ${host} did not answer within 100 ms`,
  });
  server.requests.length = 0;
  await t.rejects(client.fetchUserUrl(`${server.origin}/loop`, { timeoutMs: 5000, maxBytes: 1000 }), {
    status: 502,
    message: /more than 5 redirects/,
  });
  t.equal(server.requests.length, 6);
});

t.test('the caller’s signal aborts a user URL fetch and its stream', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/partial') res.write('part');
  });
  const client = createHttpClient(openConfig);
  const controller = new AbortController();
  const call = client.fetchUserUrl(`${server.origin}/hang`, { timeoutMs: 60_000, maxBytes: 1000, signal: controller.signal });
  await until(() => server.requests.length === 1);
  controller.abort(new Error('gone'));
  await t.rejects(call, { message: 'gone' });
  await until(() => server.abandoned === 1);

  const streamController = new AbortController();
  const streamed = await client.streamUserUrl(`${server.origin}/partial`, {
    timeoutMs: 60_000,
    maxBytes: 1000,
    signal: streamController.signal,
  });
  const ended = new Promise((resolve) => streamed.body.on('error', resolve).resume());
  streamController.abort(new Error('left'));
  t.match(await ended, { message: 'left' });
  await until(() => server.abandoned === 2);
  t.pass('the upstream was closed');
});

import zlib from 'node:zlib';
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { createHttpClient, upstreamStatusOf } from '../../engine/platform/http/client.js';
import { serve, until } from './local-server.js';

const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.manifold.test' });
// Short backoff keeps the retry tests quick; the policy under test is the same.
const client = createHttpClient(config, { retryBaseMs: 20 });

const readAll = async (stream: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

t.test('JSON with the user agent, query, headers and bodies', async (t) => {
  const server = await serve(t, (req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  type Echo = { method: string; url: string; headers: Record<string, string>; body: string };
  const get = await client.upstreamJson<Echo>({
    upstream: 'echo',
    url: `${server.origin}/search?format=json`,
    searchParams: { q: 'a b', page: 2 },
    headers: { 'x-token': 'abc' },
    timeoutMs: 5000,
  });
  t.equal(get.method, 'GET');
  t.equal(get.url, '/search?q=a+b&page=2');
  t.equal(get.headers['user-agent'], 'Manifold/3.0.4 (+https://api.manifold.test)');
  t.equal(client.userAgent, 'Manifold/3.0.4 (+https://api.manifold.test)');
  t.equal(get.headers['x-token'], 'abc');
  t.equal(get.headers.accept, 'application/json');

  const post = await client.upstreamJson<Echo>({
    upstream: 'echo',
    url: server.origin,
    method: 'POST',
    json: { model: 'x', messages: [] },
    timeoutMs: 5000,
  });
  t.equal(post.method, 'POST');
  t.same(JSON.parse(post.body), { model: 'x', messages: [] });
  t.match(post.headers['content-type'], /application\/json/);

  const form = await client.upstreamJson<Echo>({
    upstream: 'echo',
    url: server.origin,
    method: 'POST',
    form: { a: '1', b: 'x y' },
    timeoutMs: 5000,
  });
  t.equal(form.body, 'a=1&b=x+y');

  const ua = await client.upstreamJson<Echo>({
    upstream: 'echo',
    url: server.origin,
    headers: { 'user-agent': 'Mozilla/5.0' },
    timeoutMs: 5000,
  });
  t.equal(ua.headers['user-agent'], 'Mozilla/5.0', 'an adapter may replace the user agent');
});

t.test('text decodes the declared charset; buffer keeps bytes and type', async (t) => {
  const server = await serve(t, (req, res) => {
    if (req.url === '/latin1') {
      res.setHeader('content-type', 'text/html; charset=ISO-8859-1');
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café" in Latin-1
    } else {
      res.setHeader('content-type', 'image/png');
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    }
  });
  t.equal(await client.upstreamText({ upstream: 'html', url: `${server.origin}/latin1`, timeoutMs: 5000 }), 'café');
  const png = await client.upstreamBuffer({ upstream: 'img', url: `${server.origin}/png`, timeoutMs: 5000 });
  t.same([...png.body], [0x89, 0x50, 0x4e, 0x47]);
  t.equal(png.contentType, 'image/png');
  t.equal(png.finalUrl, `${server.origin}/png`);
});

t.test('5xx on GET: two retries, then 502; a POST is never retried', async (t) => {
  const server = await serve(t, (_req, res) => {
    res.statusCode = 500;
    res.end('{"error":"boom"}');
  });
  await t.rejects(client.upstreamJson({ upstream: 'flaky', url: server.origin, timeoutMs: 5000 }), {
    status: 502,
    code: 'upstream_error',
    message: 'Upstream flaky failed: HTTP 500',
  });
  t.equal(server.requests.length, 3, 'one try and two retries');

  server.requests.length = 0;
  await t.rejects(client.upstreamJson({ upstream: 'flaky', url: server.origin, method: 'POST', json: {}, timeoutMs: 5000 }), {
    status: 502,
    code: 'upstream_error',
  });
  t.equal(server.requests.length, 1, 'POST is not idempotent');

  server.requests.length = 0;
  await t.rejects(client.upstreamJson({ upstream: 'flaky', url: server.origin, retries: 0, timeoutMs: 5000 }));
  t.equal(server.requests.length, 1, 'a call may turn retries off');
});

t.test('a retry that succeeds is invisible; 4xx is not retried', async (t) => {
  const server = await serve(t, (req, res, self) => {
    if (req.url === '/missing') {
      res.statusCode = 404;
      return res.end();
    }
    res.statusCode = self.requests.length === 1 ? 503 : 200;
    res.end('{"ok":true}');
  });
  t.same(await client.upstreamJson({ upstream: 'u', url: `${server.origin}/`, timeoutMs: 5000 }), { ok: true });
  t.equal(server.requests.length, 2);
  await t.rejects(client.upstreamJson({ upstream: 'u', url: `${server.origin}/missing`, timeoutMs: 5000 }), {
    status: 502,
    message: /HTTP 404/,
  });
  t.equal(server.requests.length, 3, 'the 404 was asked once');
  const missing = await client.upstreamJson({ upstream: 'u', url: `${server.origin}/missing`, timeoutMs: 5000 }).catch((e) => e);
  t.equal(upstreamStatusOf(missing), 404, 'adapters can read the upstream status');
  t.equal(upstreamStatusOf(new Error('other')), undefined);
});

t.test('no retry that would outlast the deadline', async (t) => {
  const server = await serve(t, (_req, res) => {
    res.statusCode = 503;
    res.setHeader('retry-after', '3600');
    res.end();
  });
  await t.rejects(client.upstreamJson({ upstream: 'busy', url: server.origin, timeoutMs: 5000 }), {
    status: 502,
    message: /HTTP 503/,
  });
  t.equal(server.requests.length, 1, 'Retry-After beyond the budget means give up now');
});

t.test('an upstream that does not answer in time is a 504', async (t) => {
  const server = await serve(t, () => {
    /* never answers */
  });
  await t.rejects(client.upstreamJson({ upstream: 'slow', url: server.origin, timeoutMs: 150 }), {
    status: 504,
    code: 'upstream_timeout',
    message: 'Upstream slow did not answer within 150 ms',
  });
  await until(() => server.abandoned === 1);
  t.equal(server.abandoned, 1, 'the request was abandoned, not left open');
});

t.test('connection errors and bad JSON are 502s that leak no secrets', async (t) => {
  const closed = await serve(t, () => {});
  const deadPort = closed.port;
  await closed.close();
  const secretUrl = `http://127.0.0.1:${deadPort}/v1?key=SECRET-KEY`;
  const refusedError = (await client
    .upstreamJson({ upstream: 'search', url: secretUrl, headers: { authorization: 'Bearer SECRET-KEY' }, timeoutMs: 5000 })
    .catch((e: Error) => e)) as Error;
  t.match(refusedError, { status: 502, code: 'upstream_error', message: 'Upstream search failed: connection refused (ECONNREFUSED)' });
  t.notMatch(JSON.stringify({ ...refusedError, message: refusedError.message }), /SECRET/);
  t.equal(refusedError.cause, undefined, 'no got error (with its options and headers) rides along');
  // .invalid never resolves (RFC 2606): what every upstream answers on a host without DNS
  const unresolved = (await client
    .upstreamJson({ upstream: 'search', url: 'http://manifold-test.invalid/v1', timeoutMs: 5000 })
    .catch((e: Error) => e)) as Error;
  t.match(unresolved, {
    status: 502,
    code: 'upstream_error',
    message: /^Upstream search failed: its host name (does not resolve \(ENOTFOUND\)|could not be resolved for now \(EAI_AGAIN\))$/,
  });

  const server = await serve(t, (_req, res) => res.end('<html>not json</html>'));
  await t.rejects(client.upstreamJson({ upstream: 'api', url: `${server.origin}/?key=SECRET-KEY`, timeoutMs: 5000 }), {
    status: 502,
    message: 'Upstream api failed: response is not valid JSON',
  });

  const failing = await serve(t, (_req, res) => {
    res.statusCode = 401;
    res.end('invalid api key SECRET-KEY');
  });
  const statusError = await client.upstreamJson({ upstream: 'api', url: `${failing.origin}/?key=SECRET-KEY`, timeoutMs: 5000 }).catch((e: Error) => e);
  t.equal((statusError as Error).message, 'Upstream api failed: HTTP 401', 'the body of an error is not echoed');
});

t.test('the size cap counts decoded bytes, with or without Content-Length', async (t) => {
  const big = Buffer.alloc(4096, 'a');
  const server = await serve(t, (req, res) => {
    if (req.url === '/sized') return res.end(big);
    if (req.url === '/chunked') {
      res.write(big.subarray(0, 2048));
      return res.end(big.subarray(2048));
    }
    res.setHeader('content-encoding', 'gzip'); // ~40 bytes on the wire, 1 MiB decoded
    res.end(zlib.gzipSync(Buffer.alloc(1024 * 1024)));
  });
  for (const path of ['/sized', '/chunked', '/bomb']) {
    await t.rejects(
      client.upstreamBuffer({ upstream: 'files', url: server.origin + path, maxBytes: 1000, timeoutMs: 5000 }),
      { status: 502, code: 'upstream_error', message: 'Upstream files failed: response too large (limit 1000 bytes)' },
      path,
    );
  }
  const fits = await client.upstreamBuffer({ upstream: 'files', url: `${server.origin}/chunked`, maxBytes: 4096, timeoutMs: 5000 });
  t.equal(fits.body.length, 4096, 'exactly the limit is allowed');
  const small = createHttpClient(config, { maxBytes: 100 });
  await t.rejects(small.upstreamBuffer({ upstream: 'files', url: `${server.origin}/sized`, timeoutMs: 5000 }), {
    message: /limit 100 bytes/,
  });
});

t.test('the caller’s abort stops the call with the caller’s reason', async (t) => {
  const server = await serve(t, () => {});
  const controller = new AbortController();
  const call = client.upstreamJson({ upstream: 'slow', url: server.origin, timeoutMs: 60_000, signal: controller.signal });
  await until(() => server.requests.length === 1);
  const reason = new Error('client went away');
  controller.abort(reason);
  await t.rejects(call, reason);
  await until(() => server.abandoned === 1);
  t.pass('the upstream request was closed');

  const already = AbortSignal.abort(new Error('too late'));
  await t.rejects(client.upstreamJson({ upstream: 'slow', url: server.origin, timeoutMs: 5000, signal: already }), {
    message: 'too late',
  });
  t.equal(server.requests.length, 1, 'an aborted signal sends nothing');
});

t.test('an abort during the retry backoff ends the call at once', async (t) => {
  const server = await serve(t, (_req, res) => {
    res.statusCode = 502;
    res.end();
  });
  const slowRetries = createHttpClient(config, { retryBaseMs: 60_000 });
  const controller = new AbortController();
  const call = slowRetries.upstreamJson({ upstream: 'u', url: server.origin, timeoutMs: 600_000, signal: controller.signal });
  await until(() => server.requests.length === 1);
  controller.abort(new Error('stop'));
  await t.rejects(call, { message: 'stop' });
  t.equal(server.requests.length, 1);
});

t.test('streams: bytes as they come, cap and abort end the stream and the upstream', async (t) => {
  const server = await serve(t, (req, res) => {
    res.setHeader('content-type', 'text/event-stream');
    if (req.url === '/sse') {
      res.write('data: one\n\n');
      res.end('data: two\n\n');
      return;
    }
    res.write('data: first\n\n'); // then hold the connection open
    if (req.url === '/flood') res.write(Buffer.alloc(4096, 'x'));
  });
  const sse = await client.upstreamStream({ upstream: 'ai', url: `${server.origin}/sse`, timeoutMs: 5000 });
  t.equal(sse.contentType, 'text/event-stream');
  t.equal(await readAll(sse.body), 'data: one\n\ndata: two\n\n');

  const controller = new AbortController();
  const held = await client.upstreamStream({ upstream: 'ai', url: `${server.origin}/held`, timeoutMs: 5000, signal: controller.signal });
  const first = await new Promise<string>((resolve) => held.body.once('data', (c: Buffer) => resolve(c.toString())));
  t.equal(first, 'data: first\n\n');
  const reason = new Error('client left');
  const failed = new Promise((resolve) => held.body.once('error', resolve));
  controller.abort(reason);
  t.equal(await failed, reason, 'the stream fails with the caller’s reason');
  await until(() => server.abandoned === 1);

  const flood = await client.upstreamStream({ upstream: 'ai', url: `${server.origin}/flood`, timeoutMs: 5000, maxBytes: 1024 });
  await t.rejects(readAll(flood.body), { status: 502, message: /response too large \(limit 1024 bytes\)/ });
  await until(() => server.abandoned === 2);
  t.pass('an over-size stream closes the upstream');

  const consumer = await client.upstreamStream({ upstream: 'ai', url: `${server.origin}/held`, timeoutMs: 5000 });
  consumer.body.destroy();
  await until(() => server.abandoned === 3);
  t.pass('destroying the returned stream closes the upstream');
});

t.test('streams: retries and the deadline apply until the headers arrive', async (t) => {
  const server = await serve(t, (req, res, self) => {
    if (req.url === '/never') return;
    if (self.requests.length === 1) {
      res.statusCode = 500;
      return res.end();
    }
    res.setHeader('content-length', '5');
    res.end('hello');
  });
  const ok = await client.upstreamStream({ upstream: 'files', url: `${server.origin}/`, timeoutMs: 5000 });
  t.equal(ok.contentLength, 5);
  t.equal(await readAll(ok.body), 'hello');
  t.equal(server.requests.length, 2, 'a 500 before the body was retried');
  await t.rejects(client.upstreamStream({ upstream: 'files', url: `${server.origin}/never`, timeoutMs: 100 }), {
    status: 504,
    code: 'upstream_timeout',
  });
});

t.test('redirects are followed up to five times', async (t) => {
  const server = await serve(t, (req, res) => {
    const n = Number(req.url?.slice(1));
    if (n > 0) {
      res.statusCode = 302;
      res.setHeader('location', `/${n - 1}`);
      return res.end();
    }
    res.end('"landed"');
  });
  t.equal(await client.upstreamJson({ upstream: 'r', url: `${server.origin}/5`, timeoutMs: 5000 }), 'landed');
  server.requests.length = 0;
  await t.rejects(client.upstreamJson({ upstream: 'r', url: `${server.origin}/6`, timeoutMs: 5000 }), {
    status: 502,
    message: 'Upstream r failed: more than 5 redirects',
  });
  t.equal(server.requests.length, 6);
});

t.test('a malformed call is a bug (500), not an upstream failure', async (t) => {
  const server = await serve(t, (_req, res) => res.end('{}'));
  const call = client.upstreamJson({
    upstream: 'u',
    url: server.origin,
    searchParams: { nested: {} } as unknown as Record<string, string>,
    timeoutMs: 5000,
  });
  await t.rejects(call, TypeError);
  await t.rejects(client.upstreamJson({ upstream: 'u', url: 'not a url', timeoutMs: 5000 }), TypeError);
  t.equal(server.requests.length, 0);
});

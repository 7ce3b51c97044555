/**
 * Upstreams are input too (#22 item 7): an upstream's redirect to an address the SSRF guard
 * refuses is not followed (502 naming the upstream, nothing reaches the address), its JSON
 * may not nest deeper than a client's, and a scraped page nested too deep to read is refused
 * at the tag that crosses the bound instead of stalling the parser or overflowing the walks.
 */
import t from 'tap';
import { loadConfig } from '../../engine/platform/config.js';
import { ApiError } from '../../engine/core/errors.js';
import { createHttpClient } from '../../engine/platform/http/client.js';
import { createSsrfGuard } from '../../engine/platform/http/ssrf-guard.js';
import { HTML_MAX_DEPTH, byClass, parseHtml } from '../../engine/features/tools/html/dom.js';
import { JSON_MAX_DEPTH } from '../../engine/core/json-depth.js';
import { serve } from './local-server.js';

const config = loadConfig({ PUBLIC_BASE_URL: 'https://api.manifold.test' });
// The upstream listens on 127.0.0.1, which this guard treats as public; 127.0.0.2 (loopback
// too, so a test server can listen there) stands for the host's private network.
const guard = createSsrfGuard({ allowPrivate: false, addressProblem: (ip) => (ip === '127.0.0.2' ? 'a private address' : undefined) });
const client = createHttpClient(config, { guard, retries: 0 });

const failureOf = async (promise: Promise<unknown>): Promise<ApiError> => {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
};

t.test("an upstream's redirect to a refused address is not followed", async (t) => {
  const inside = await serve(t, (_req, res) => res.end('{"secret":true}'), '127.0.0.2');
  const upstream = await serve(t, (req, res) => {
    res.statusCode = 302;
    res.setHeader('location', req.url === '/same' ? '/landing' : req.url === '/landing' ? '' : `${inside.origin}/latest/meta-data`);
    if (req.url === '/landing') {
      res.statusCode = 200;
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
      return;
    }
    res.end();
  });
  const error = await failureOf(client.upstreamJson({ upstream: 'weather', url: `${upstream.origin}/away`, timeoutMs: 5000 }));
  t.equal(error.status, 502);
  t.equal(error.code, 'upstream_error');
  t.match(error.message, /weather/, 'the 502 names the upstream');
  t.match(error.message, /redirected to a refused address/);
  t.equal(inside.requests.length, 0, 'nothing reached the refused address');

  const same = await client.upstreamJson<{ ok: boolean }>({ upstream: 'weather', url: `${upstream.origin}/same`, timeoutMs: 5000 });
  t.same(same, { ok: true }, "a redirect within the upstream's own host is followed, as before");
});

t.test('an upstream may itself be on a private address the host configured', async (t) => {
  const inside = await serve(t, (_req, res) => res.end('{"ok":true}'), '127.0.0.2');
  t.same(await client.upstreamJson({ upstream: 'searxng', url: `${inside.origin}/search`, timeoutMs: 5000 }), { ok: true });
});

t.test("an upstream's JSON nested deeper than a client's may be is a 502", async (t) => {
  const depth = JSON_MAX_DEPTH + 1;
  const upstream = await serve(t, (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('['.repeat(depth) + ']'.repeat(depth));
  });
  const error = await failureOf(client.upstreamJson({ upstream: 'deep', url: upstream.origin, timeoutMs: 5000 }));
  t.equal(error.status, 502);
  t.match(error.message, /deep.*nests more than 64 levels/);
  const ok = await serve(t, (_req, res) => res.end('['.repeat(JSON_MAX_DEPTH) + ']'.repeat(JSON_MAX_DEPTH)));
  t.ok(await client.upstreamJson({ upstream: 'deep', url: ok.origin, timeoutMs: 5000 }), `${JSON_MAX_DEPTH} levels still read`);
});

t.test('a page nested too deep is refused at the bound, whoever served it', async (t) => {
  // 100,000 nested elements took the parser 30 s and overflowed the stack of every walk
  const hostile = '<div class="a">'.repeat(100_000);
  const fromUpstream = t.throws(() => parseHtml(hostile, { upstream: 'happymod' })) as unknown as ApiError;
  t.ok(fromUpstream instanceof ApiError);
  t.match(fromUpstream, { status: 502, code: 'upstream_error', message: /happymod.*nests elements more than 256 deep/ });
  const fromClient = t.throws(() => parseHtml(hostile)) as unknown as ApiError;
  t.match(fromClient, { status: 422, code: 'too_complex' }, "a page the client pointed at is the client's input");

  const deepest = '<div class="a">'.repeat(HTML_MAX_DEPTH) + 'x';
  t.equal(byClass(parseHtml(deepest), 'a').length, HTML_MAX_DEPTH, 'a page at the bound is read whole');
  const implied = '<ul>' + '<li class="i">item'.repeat(5000) + '</ul><p class="p">a<br>b<img src=x><p class="p">c';
  const doc = parseHtml(implied);
  t.equal(byClass(doc, 'i').length, 5000, 'implied closes (li, p) and void elements do not count as nesting');
  t.equal(byClass(doc, 'p').length, 2);
});

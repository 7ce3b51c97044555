import t from 'tap';
import { serve } from '../support/serve.js';
import { buildOpenApi } from '../../engine/discovery/openapi.js';

/** GET /openapi.json and /docs on a running engine, over HTTP, without a key. */

const served = await serve({});
t.teardown(() => served.close());
const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(served.url + p, { method, headers });

t.test('/openapi.json: the registry document, no key, cached and compressed', async (t) => {
  const res = await get('/openapi.json');
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^application\/json/);
  t.equal(res.headers.get('content-encoding'), 'gzip', 'gzipped for a client that accepts it');
  t.match(res.headers.get('cache-control'), /max-age=/);
  t.ok(res.headers.get('x-request-id'));
  const doc = await res.json();
  t.same(doc, JSON.parse(JSON.stringify(buildOpenApi(served.engine.registry, served.engine.config))));
  t.equal(doc.servers[0].url, served.url);
  t.equal(Object.keys(doc.paths).length >= served.engine.registry.routes.length, true);

  const plain = await get('/openapi.json', { 'Accept-Encoding': 'identity' });
  t.equal(plain.headers.get('content-encoding'), null);
  t.same(await plain.json(), doc, 'same document uncompressed');

  // what a browser sends on revalidation (fetch itself adds Cache-Control: no-cache with If-None-Match)
  const again = await get('/openapi.json', { 'If-None-Match': res.headers.get('etag')!, 'Cache-Control': 'max-age=0' });
  t.equal(again.status, 304, 'revalidation with the ETag');
  t.equal((await again.arrayBuffer()).byteLength, 0);

  const post = await get('/openapi.json', {}, 'POST');
  t.equal(post.status, 405);
});

t.test('/docs and /docs/: the page, its assets from this server, a strict CSP', async (t) => {
  for (const p of ['/docs', '/docs/']) {
    const res = await get(p);
    t.equal(res.status, 200, p);
    t.match(res.headers.get('content-type'), /^text\/html/);
    t.equal(res.headers.get('cache-control'), 'no-cache');
    t.match(res.headers.get('content-security-policy'), /script-src 'self'(;|$)/);
  }
  const html = await (await get('/docs')).text();
  t.notMatch(html, /https?:\/\//, 'no asset from another origin');
  const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  t.ok(refs.some((r) => r.startsWith('/docs/swagger-ui-bundle.js')));
  t.ok(refs.some((r) => r.startsWith('/docs/swagger-ui.css')));
  const types: Record<string, RegExp> = { js: /^application\/javascript/, css: /^text\/css/, png: /^image\/png/ };
  for (const ref of refs) {
    const res = await get(ref);
    t.equal(res.status, 200, ref);
    t.match(res.headers.get('content-type'), types[new URL(ref, served.url).pathname.split('.').pop()!], ref);
    t.match(res.headers.get('cache-control'), /immutable/, ref);
    t.ok((await res.arrayBuffer()).byteLength > 100, `${ref} has content`);
  }
  const init = await (await get('/docs/init.js')).text();
  t.match(init, /url: '\/openapi\.json'/);
  t.match(init, /validatorUrl: null/, 'the online validator is off');

  const head = await get('/docs', {}, 'HEAD');
  t.equal(head.status, 200);
});

t.test('/docs/<anything else>: 404 envelope, nothing outside the list', async (t) => {
  for (const p of ['/docs/index.html', '/docs/package.json', '/docs/..%2F..%2Fpackage.json', '/docs/swagger-initializer.js', '/docs/constructor']) {
    const res = await get(p);
    t.equal(res.status, 404, p);
    t.match(await res.json(), { success: false, error: 'not_found' }, p);
  }
});

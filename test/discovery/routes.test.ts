import t from 'tap';
import { serve } from '../support/serve.js';
import { buildOpenApi } from '../../engine/pipeline/discovery/openapi.js';

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
  t.same(doc, JSON.parse(JSON.stringify(buildOpenApi(served.engine.registry, served.engine.config, undefined, served.engine.builtins))));
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

t.test('/openapi/<category>.json: one category, no key; /docs/swagger-config.json lists them all', async (t) => {
  const res = await get('/openapi/fun.json');
  t.equal(res.status, 200);
  const doc = await res.json();
  t.same(doc, JSON.parse(JSON.stringify(buildOpenApi(served.engine.registry, served.engine.config, 'fun', served.engine.builtins))));
  const operations = Object.values<Record<string, { tags: string[] }>>(doc.paths).flatMap((item) => Object.values(item));
  const fun = served.engine.registry.routes.filter((r) => r.endpoint.category === 'fun');
  t.ok(operations.length >= fun.length, `${operations.length} operations for ${fun.length} fun endpoints`);
  t.ok(
    operations.every((o) => o.tags[0] === 'fun'),
    'only the category',
  );
  t.same(doc.tags.map((tag: { name: string }) => tag.name).slice(0, 1), ['fun']);

  const unknown = await get('/openapi/nope.json');
  t.equal(unknown.status, 404);
  t.match(await unknown.json(), { error: 'not_found', message: /one of ai, download/ });

  const config = await (await get('/docs/swagger-config.json')).json();
  const categories = new Set(served.engine.registry.routes.map((r) => r.endpoint.category));
  t.equal(config.urls.length, categories.size + 1, 'one document per category, and everything');
  t.equal(config['urls.primaryName'], config.urls[0].name);
  for (const { url } of config.urls) t.equal((await get(url)).status, 200, url);
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
  t.match(init, /configUrl: '\/docs\/swagger-config\.json'/);
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

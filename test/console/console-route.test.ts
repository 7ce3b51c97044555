/**
 * /admin as served: the page and its files with their types, a strict CSP and cache
 * headers; no admin route takes ADMIN_TOKEN from the query string; and
 * GET /api/admin/unavailable, the console's list of what would enable each endpoint.
 */
import t from 'tap';
import { buildConsole } from '../../scripts/build-console.js';
import { testEndpoints } from '../engine/test-endpoints.js';
import { serve, TEST_KEY } from '../support/serve.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';

await buildConsole();
const served = await serve({ ADMIN_TOKEN: TEST_ADMIN_TOKEN }, testEndpoints());
t.teardown(() => served.close());
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

t.test('the page and its files: types, CSP, caching, nothing else under /admin', async (t) => {
  const page = await fetch(`${served.url}/admin`);
  t.equal(page.status, 200);
  t.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
  const csp = page.headers.get('content-security-policy') ?? '';
  t.match(csp, /default-src 'none'/);
  t.match(csp, /script-src 'self'(;|$)/, 'scripts from this server only');
  t.match(csp, /style-src 'self'(;|$)/, 'styles from this server only');
  t.match(csp, /connect-src 'self'(;|$)/, 'calls to this server only');
  t.match(csp, /frame-ancestors 'none'/);
  t.notMatch(csp, /unsafe-(inline|eval)/, 'no inline script or style, no eval');
  t.equal(page.headers.get('x-content-type-options'), 'nosniff');
  t.equal(page.headers.get('referrer-policy'), 'no-referrer');
  const html = await page.text();
  t.notMatch(html, /https?:\/\//, 'the page loads nothing from elsewhere');

  const links = [...html.matchAll(/(?:src|href)="(\/admin\/[^"]+)"/g)].map((m) => m[1]!);
  t.same(links.map((l) => l.replace(/\?v=[\w-]+$/, '')).sort(), ['/admin/console.css', '/admin/console.js'], 'the page links its script and stylesheet');
  for (const link of links) {
    const res = await fetch(served.url + link, { headers: { 'Accept-Encoding': 'gzip' } });
    t.equal(res.status, 200, link);
    t.equal(res.headers.get('content-type'), link.includes('.js') ? 'application/javascript; charset=utf-8' : 'text/css; charset=utf-8', link);
    t.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable', `${link}: its URL changes with its content`);
    t.notMatch(await res.text(), /https?:\/\/(cdn|unpkg|fonts\.)/, `${link} fetches nothing from a CDN`);
  }
  for (const path of ['/admin/index.html.map', '/admin/..%2Fpackage.json', '/admin/app.tsx'])
    t.equal((await fetch(served.url + path)).status, 404, `${path}: only the built files`);
});

t.test('no admin route takes ADMIN_TOKEN from the query string', async (t) => {
  const listing = await (await fetch(`${served.url}/api/admin/endpoints`, { headers: { 'X-API-Key': TEST_KEY } })).json();
  const adminRoutes: { method: string; path: string }[] = listing.result.builtins.filter((b: { auth: string }) => b.auth === 'admin');
  t.ok(adminRoutes.length >= 6, `${adminRoutes.length} admin routes`);
  const names = ['token', 'admin_token', 'adminToken', 'access_token', 'apikey', 'api_key', 'authorization', 'bearer'];
  const query = names.map((n) => `${n}=${TEST_ADMIN_TOKEN}`).join('&');
  for (const { method, path } of adminRoutes) {
    const url = `${served.url}${path.replace(/:\w+/g, 'key_000000000000')}`;
    const withBody = method !== 'GET' && method !== 'DELETE';
    const init: { method: string; headers: Record<string, string>; body?: string } = {
      method,
      headers: withBody ? { 'Content-Type': 'application/json' } : {},
      body: withBody ? '{}' : undefined,
    };
    const inQuery = await fetch(`${url}?${query}`, init);
    t.equal(inQuery.status, 403, `${method} ${path}: the token in the query is not accepted`);
    t.equal((await inQuery.json()).error, 'forbidden');
    const inHeader = await fetch(url, { ...init, headers: { ...init.headers, ...ADMIN } });
    t.not(inHeader.status, 403, `${method} ${path}: the same call with the header passes`);
  }
});

t.test('GET /api/admin/unavailable: what would enable each unavailable endpoint', async (t) => {
  t.equal((await fetch(`${served.url}/api/admin/unavailable`)).status, 403, 'admin only');
  t.equal((await fetch(`${served.url}/api/admin/unavailable`, { headers: { 'X-API-Key': TEST_KEY } })).status, 403, 'an API key is not enough');
  const res = await fetch(`${served.url}/api/admin/unavailable`, { headers: ADMIN });
  t.equal(res.status, 200);
  const { result } = await res.json();
  t.equal(result.endpoints, served.engine.registry.routes.length);
  t.equal(result.total, served.engine.registry.routes.filter((r) => r.unavailable).length);
  const reason = served.engine.registry.routes.find((r) => r.endpoint.path === '/api/test/needs-env')!.unavailable;
  t.same(
    result.groups.find((g: { fix: string }) => g.fix === 'set SOME_UNSET_VARIABLE'),
    { fix: 'set SOME_UNSET_VARIABLE', variables: ['SOME_UNSET_VARIABLE'], count: 1, endpoints: [{ id: 'GET /api/test/needs-env', reason }] },
    'the variable, and the endpoint with its reason',
  );
});

import t from 'tap';
import { bearerToken, keyFromRequest } from '../../engine/platform/auth/key-from-request.js';
import { startApp } from './koa-harness.js';

t.test('the key is read from each of the five places', async (t) => {
  const url = await startApp(t, (router) => {
    router.all('/echo', (ctx) => {
      ctx.state.result = { key: keyFromRequest(ctx) ?? null };
    });
  });
  const presented = async (path: string, init?: RequestInit) => {
    const response = await fetch(url + path, init);
    return ((await response.json()) as { result: { key: string | null } }).result.key;
  };
  const form = new FormData();
  form.set('apikey', 'k-multipart');
  form.set('q', 'x');

  t.equal(await presented('/echo?apikey=k-query&q=1'), 'k-query', 'query parameter');
  t.equal(
    await presented('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apikey: 'k-json' }) }),
    'k-json',
    'JSON body',
  );
  t.equal(await presented('/echo', { method: 'POST', body: new URLSearchParams({ apikey: 'k-form' }) }), 'k-form', 'urlencoded form');
  t.equal(await presented('/echo', { method: 'POST', body: form }), 'k-multipart', 'multipart field');
  t.equal(await presented('/echo', { headers: { Authorization: 'Bearer k-bearer' } }), 'k-bearer', 'Authorization: Bearer');
  t.equal(await presented('/echo', { headers: { 'X-API-Key': 'k-header' } }), 'k-header', 'X-API-Key');
  t.equal(await presented('/echo'), null, 'none');
  t.equal(await presented('/echo?apikey='), null, 'an empty value is no key');
  t.equal(await presented('/echo', { headers: { Authorization: 'Basic dXNlcjpwYXNz' } }), null, 'other schemes are not keys');
  t.equal(await presented('/echo?apikey=k-query', { headers: { 'X-API-Key': 'k-header' } }), 'k-header', 'headers win over the query');
  t.equal(await presented('/echo?apikey=first&apikey=second'), 'first', 'a repeated parameter counts once');
  t.equal(
    await presented('/echo', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '["apikey"]' }),
    null,
    'a non-object body has no key',
  );
});

t.test('bearerToken', async (t) => {
  t.equal(bearerToken('Bearer abc'), 'abc');
  t.equal(bearerToken('bearer   abc  '), 'abc');
  t.equal(bearerToken('Bearer'), undefined);
  t.equal(bearerToken('Bearer a b'), undefined);
  t.equal(bearerToken(''), undefined);
});

import t from 'tap';
import { redactBody, redactHeaders, redactUrl } from '../../engine/auth/redact.js';

t.test('redactUrl blanks secret parameters and keeps the rest as written', async (t) => {
  t.equal(redactUrl('/api/ai/ai?q=hello%20world&apikey=mf_secret'), '/api/ai/ai?q=hello%20world&apikey=[redacted]');
  t.equal(
    redactUrl('https://x.test/a?KEY=1&token=2&password=3&secret=4&api_key=5&access_token=6&keep=7#frag'),
    'https://x.test/a?KEY=[redacted]&token=[redacted]&password=[redacted]&secret=[redacted]&api_key=[redacted]&access_token=[redacted]&keep=7#frag',
  );
  t.equal(redactUrl('/a?api%6Bey=mf_x'), '/a?api%6Bey=[redacted]', 'percent-encoded names are recognised');
  t.equal(redactUrl('apikey=mf_x&q=1'), 'apikey=[redacted]&q=1', 'bare query string');
  t.equal(redactUrl('/api/fun/quote'), '/api/fun/quote');
  t.equal(redactUrl('/a?apikey&q=%E0%A4%A'), '/a?apikey&q=%E0%A4%A', 'no value, malformed escapes: unchanged');
  t.equal(redactUrl('/a?monkey=1&keys=2'), '/a?monkey=1&keys=2', 'only exact names');
});

t.test('redactBody copies and blanks secret fields at any depth', async (t) => {
  const body = { apikey: 'mf_x', q: 'hi', nested: { Password: 'p', list: [{ token: 't', n: 1 }] }, file: Buffer.alloc(3) };
  t.same(redactBody(body), {
    apikey: '[redacted]',
    q: 'hi',
    nested: { Password: '[redacted]', list: [{ token: '[redacted]', n: 1 }] },
    file: '<3 bytes>',
  });
  t.equal(body.apikey, 'mf_x', 'the input is unchanged');
  t.equal(redactBody('plain'), 'plain');
  t.equal(redactBody(null), null);
  let deep: Record<string, unknown> = { apikey: 'mf_deep' };
  for (let i = 0; i < 20; i++) deep = { child: deep };
  t.notMatch(JSON.stringify(redactBody(deep)), /mf_deep/, 'very deep bodies never leak');
});

t.test('redactHeaders blanks credentials', async (t) => {
  t.same(redactHeaders({ authorization: 'Bearer mf_x', 'X-API-Key': 'mf_y', cookie: 'c', accept: '*/*' }), {
    authorization: '[redacted]',
    'X-API-Key': '[redacted]',
    cookie: '[redacted]',
    accept: '*/*',
  });
});

/**
 * Usage worth billing on (#20 item 2): an AI call's tokens as the provider reported them,
 * a streamed answer's bytes as they went out, answers by status class, the CSV export
 * and the same figures in /metrics (labelled by endpoint and tier, never the key).
 */
import t from 'tap';
import { csvLine } from '../../engine/pipeline/admin/usage-routes.js';
import { serveEndpoints } from '../search/serve-endpoints.js';
import { TEST_ADMIN_TOKEN } from '../support/tokens.js';
import { chunk, completion, fakeOpenAi } from '../ai/fake-openai.js';

const MANIFESTS = { files: ['ai/ai.yaml'], paths: ['/api/ai/ai'] };
const ADMIN = { Authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const ENDPOINT = 'GET /api/ai/ai';

t.test('tokens, bytes and status classes per key, endpoint and day; CSV; metrics', async (t) => {
  const upstream = await fakeOpenAi(t, (body, res) => {
    const prompt = body.messages.at(-1).content;
    if (prompt === 'fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"down"}}');
    if (!body.stream) return void res.writeHead(200, { 'content-type': 'application/json' }).end(completion('Hi there'));
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk({ role: 'assistant', content: 'Hel' }));
    res.write(chunk({ content: 'lo' }, 'stop'));
    // the usage chunk a provider sends last when it reports a stream's tokens
    res.write(
      `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 4, completion_tokens: 3 } })}\n\n`,
    );
    res.end('data: [DONE]\n\n');
  });
  const api = await serveEndpoints(t, { ...MANIFESTS, env: { OPENAI_BASE_URL: upstream.baseUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN } });
  const key = await api.engine.keys.create({ tier: 'personal', label: 'billing' });
  const report = async (query: string) => {
    const res = await fetch(`${api.url}/api/admin/usage?key=${key.id}${query}`, { headers: ADMIN });
    t.equal(res.status, 200, query);
    return (await res.json()).result;
  };

  const whole = await api.get('/api/ai/ai', { q: 'hello' }, key.key);
  t.equal(whole.status, 200);
  const wholeBytes = (await whole.arrayBuffer()).byteLength;
  const streamed = await api.get('/api/ai/ai', { q: 'hello', stream: 'true' }, key.key);
  t.equal(streamed.status, 200);
  const streamedBytes = (await streamed.arrayBuffer()).byteLength;
  const failed = await api.get('/api/ai/ai', { q: 'fail' }, key.key);
  t.equal(failed.status, 502);
  const failedBytes = (await failed.arrayBuffer()).byteLength;

  // a streamed answer is reported when its response closes, which may be just after the client read its end
  let usage = await report('');
  while (usage.totals.bytes_out < wholeBytes + streamedBytes + failedBytes) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    usage = await report('');
  }
  const day = new Date().toISOString().slice(0, 10);
  const figures = {
    requests: 3,
    requests_2xx: 2,
    requests_3xx: 0,
    requests_4xx: 0,
    requests_5xx: 1,
    bytes_out: wholeBytes + streamedBytes + failedBytes,
    // the whole answer's usage (5, 2) and the stream's last chunk's (4, 3)
    prompt_tokens: 9,
    completion_tokens: 5,
    media_seconds: 0,
  };
  t.same(usage.rows, [{ key_id: key.id, endpoint: ENDPOINT, day, ...figures }]);
  const { requests, ...totals } = figures;
  t.same(usage.totals, totals);
  t.equal(usage.total, requests);
  t.same(usage.by_key, [{ key_id: key.id, tier: 'personal', label: 'billing', ...figures }]);
  t.same(usage.by_endpoint, [{ endpoint: ENDPOINT, ...figures }]);
  t.same(usage.by_day, [{ day, ...figures }]);
  t.equal((await report('&from=2000-01-01&to=2000-01-31')).rows.length, 0, 'a range without the day has nothing');

  const csv = await fetch(`${api.url}/api/admin/usage?key=${key.id}&from=${day}&to=${day}&format=csv`, { headers: ADMIN });
  t.equal(csv.status, 200);
  t.match(csv.headers.get('content-type'), /^text\/csv/);
  t.equal(csv.headers.get('x-usage-truncated'), 'false');
  t.equal(
    await csv.text(),
    'day,key_id,endpoint,requests,requests_2xx,requests_3xx,requests_4xx,requests_5xx,bytes_out,prompt_tokens,completion_tokens,media_seconds\r\n' +
      `${day},${key.id},${ENDPOINT},3,2,0,0,1,${figures.bytes_out},9,5,0\r\n`,
  );
  const badFormat = await fetch(`${api.url}/api/admin/usage?format=xml`, { headers: ADMIN });
  t.equal(badFormat.status, 400);
  t.equal((await badFormat.json()).details[0].param, 'format');

  const metrics = await (await fetch(`${api.url}/metrics`)).text();
  t.match(metrics, /manifold_ai_tokens_total\{category="ai",endpoint="\/api\/ai\/ai",tier="personal",direction="prompt"\} 9\n/);
  t.match(metrics, /manifold_ai_tokens_total\{category="ai",endpoint="\/api\/ai\/ai",tier="personal",direction="completion"\} 5\n/);
  const sent = /manifold_response_bytes_total\{category="ai",endpoint="\/api\/ai\/ai",tier="personal"\} (\d+)\n/.exec(metrics);
  t.ok(sent && Number(sent[1]) >= figures.bytes_out, 'bytes out in the metrics');
  t.notMatch(metrics, key.id, 'never the key id');
});

t.test('CSV fields are quoted as RFC 4180 says, and formulas are defused', async (t) => {
  t.equal(csvLine(['plain', 1, 'a,b', 'say "hi"', 'two\nlines']), 'plain,1,"a,b","say ""hi""","two\nlines"\r\n');
  t.equal(csvLine(['=SUM(A1)', '-1', '@x', 'fine=1']), "'=SUM(A1),'-1,'@x,fine=1\r\n");
});

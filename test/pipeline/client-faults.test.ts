/**
 * Every client fault is a 4xx envelope, tested with raw sockets against the server
 * npm start runs (engine/app/http-server.ts): what Node's parser refuses (clientError),
 * header, request and body timeouts, body size, depth, encoding and multipart faults.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import t from 'tap';

type Tap = Pick<typeof t, 'equal' | 'match' | 'ok'>;
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { rawRequest, UPLOAD_MANIFEST, type RawAnswer } from './raw-http.js';

const dir = tempDataDir('manifold-faults-');
fs.mkdirSync(path.join(dir, 'data'));
fs.writeFileSync(path.join(dir, 'data', 'words.json'), JSON.stringify([{ word: 'alpha' }]));
const MANIFESTS: Record<string, string> = {
  'small.yaml': `
path: /api/test/small
method: POST
body: [json, form]
category: tools
summary: JSON body with its own limit
limits: { bodyBytes: 200 }
params:
  word: { schema: { type: string }, description: a word }
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'any.yaml': `
path: /api/test/any
method: POST
body: [json, form]
category: tools
summary: JSON body under BODY_MAX_BYTES
params:
  data: { schema: {}, description: anything }
adapter: { kind: dataset, config: { file: data/words.json } }
examples: [{ params: {}, expect: {} }]
`,
  'upload.yaml': UPLOAD_MANIFEST,
  'slow.yaml': `
path: /api/test/slow
category: search
summary: An answer that takes longer than REQUEST_TIMEOUT_MS
adapter: { kind: http, config: { providers: [{ upstream: local, path: /slow, result: items }] } }
limits: { timeoutMs: 10000 }
examples: [{ params: {}, expect: {} }]
`,
};
for (const [name, text] of Object.entries(MANIFESTS)) fs.writeFileSync(path.join(dir, name), text);

const upstream = http.createServer((_req, res) => setTimeout(() => res.end(JSON.stringify({ items: ['late'] })), 2500));
await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
const served = await serve(
  { BODY_MAX_BYTES: '1000', UPLOAD_MAX_BYTES: '5000', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '1500', BODY_IDLE_TIMEOUT_MS: '600' },
  {
    endpoints: loadEndpoints(dir),
    upstreamSpecs: [
      { name: 'local', description: 'slow', baseUrl: { env: 'LOCAL_URL', default: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` } },
    ],
  },
);
t.teardown(async () => {
  await served.close();
  upstream.closeAllConnections();
  upstream.close();
});

/** The envelope every fault must have (docs/using/contract.md), with its status repeated in the body. */
function isEnvelope(t: Tap, answer: RawAnswer, status: number, error: string) {
  t.equal(answer.status, status, `HTTP ${status}`);
  t.match(answer.json, { status, success: false, creator: 'Manifold', error, message: String });
  t.match(answer.headers['content-type'], /^application\/json/);
  t.ok(answer.headers['x-request-id'], 'request id');
}

const post = (p: string, headers: string, body: Buffer | string) => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  return rawRequest(
    served.url,
    `POST ${p} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n${headers}Content-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
    bytes,
  );
};
const json = 'Content-Type: application/json\r\n';

t.test("what Node's parser refuses is an envelope too", async (t) => {
  isEnvelope(t, await rawRequest(served.url, `GET /api/test/small?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`), 431, 'headers_too_large');
  isEnvelope(t, await rawRequest(served.url, `GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n`), 400, 'bad_request');
  isEnvelope(t, await rawRequest(served.url, 'HELLO\r\n\r\n'), 400, 'bad_request');
  isEnvelope(
    t,
    await rawRequest(served.url, `POST /api/test/small HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`),
    400,
    'bad_request',
  );
  isEnvelope(t, await rawRequest(served.url, `POST /api/test/small HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`), 400, 'bad_request');
});

t.test('headers that do not arrive in time: 408', async (t) => {
  const answer = await rawRequest(served.url, 'GET /health HTTP/1.1\r\nHost: x\r\n');
  isEnvelope(t, answer, 408, 'request_timeout');
});

t.test('a body that stops arriving: 408 after BODY_IDLE_TIMEOUT_MS', async (t) => {
  const answer = await rawRequest(served.url, `POST /api/test/any HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n${json}Content-Length: 100\r\n\r\n{"data":`);
  isEnvelope(t, answer, 408, 'request_timeout');
});

t.test('a body trickled in slower than REQUEST_TIMEOUT_MS allows: 408', async (t) => {
  const size = 900;
  const answer = await rawRequest(served.url, `POST /api/test/any HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n${json}Content-Length: ${size}\r\n\r\n`, {
    size,
    chunk: 10,
    delayMs: 200,
  });
  isEnvelope(t, answer, 408, 'request_timeout');
  t.ok(answer.sentBeforeAnswer < size, 'cut off before the body was complete');
});

t.test('an answer that takes longer than REQUEST_TIMEOUT_MS is not cut off (the timeout covers receiving only)', async (t) => {
  const answer = await rawRequest(served.url, `GET /api/test/slow HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\nConnection: close\r\n\r\n`);
  t.equal(answer.status, 200);
  t.same(answer.json.result, ['late']);
});

t.test('413 names the limit that applies', async (t) => {
  const own = await post('/api/test/small', json, JSON.stringify({ word: 'x'.repeat(300) }));
  isEnvelope(t, own, 413, 'payload_too_large');
  t.match(own.json.message, /limits\.bodyBytes \(200 bytes\)/);
  const global = await post('/api/test/any', json, JSON.stringify({ data: 'x'.repeat(2000) }));
  isEnvelope(t, global, 413, 'payload_too_large');
  t.match(global.json.message, /BODY_MAX_BYTES \(1000 bytes\)/);
  const form = await post('/api/test/any', 'Content-Type: application/x-www-form-urlencoded\r\n', `data=${'x'.repeat(2000)}`);
  t.match(form.json.message, /BODY_MAX_BYTES/);
  const B = 'xyz';
  const upload = await post(
    '/api/test/upload',
    `Content-Type: multipart/form-data; boundary=${B}\r\n`,
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n${'x'.repeat(8000)}\r\n--${B}--\r\n`,
  );
  isEnvelope(t, upload, 413, 'payload_too_large');
  t.match(upload.json.message, /UPLOAD_MAX_BYTES \(5000 bytes\)/);
});

t.test('deeply nested JSON is a 400 naming the body, not a 500', async (t) => {
  const deep = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const unlimited = await serve({}, { endpoints: loadEndpoints(dir) });
  t.teardown(() => unlimited.close());
  const res = await fetch(`${unlimited.url}/api/test/any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
    body: deep,
  });
  t.equal(res.status, 400);
  t.match(await res.json(), { error: 'invalid_body', details: [{ param: 'body', problem: /nested deeper than 64/ }] });
  const fine = await fetch(`${unlimited.url}/api/test/any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
    body: `{"data":${'['.repeat(60)}${']'.repeat(60)}}`,
  });
  t.equal(fine.status, 200, '60 levels pass');
});

t.test('Content-Encoding: an unsupported coding is 415, corrupt data 400, a real gzip/brotli body works', async (t) => {
  isEnvelope(t, await post('/api/test/any', `${json}Content-Encoding: zstd\r\n`, '{}'), 415, 'unsupported_media_type');
  const B = 'xyz';
  isEnvelope(
    t,
    await post('/api/test/upload', `Content-Type: multipart/form-data; boundary=${B}\r\nContent-Encoding: br\r\n`, `--${B}--\r\n`),
    415,
    'unsupported_media_type',
  );
  const corrupt = await post('/api/test/any', `${json}Content-Encoding: br\r\n`, 'this is not brotli');
  isEnvelope(t, corrupt, 400, 'invalid_body');
  t.match(corrupt.json.message, /compressed data is corrupt/);
  t.equal((await post('/api/test/any', `${json}Content-Encoding: br\r\n`, zlib.brotliCompressSync('{"data":1}'))).status, 200);
  t.equal((await post('/api/test/any', `${json}Content-Encoding: gzip\r\n`, zlib.gzipSync('{"data":1}'))).status, 200);
});

t.test('multipart without a boundary, or truncated, is 400 invalid_body', async (t) => {
  const none = await post('/api/test/upload', 'Content-Type: multipart/form-data\r\n', 'whatever');
  isEnvelope(t, none, 400, 'invalid_body');
  t.match(none.json.message, /boundary/);
  const B = 'xyz';
  const cut = await post(
    '/api/test/upload',
    `Content-Type: multipart/form-data; boundary=${B}\r\n`,
    `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\nabc`,
  );
  isEnvelope(t, cut, 400, 'invalid_body');
  t.match(cut.json.message, /truncated/);
  // removed when the response closes, which can be a moment after the client saw it
  for (let i = 0; i < 50 && fs.readdirSync(served.engine.files.tempDir).length; i++) await new Promise((r) => setTimeout(r, 50));
  t.same(fs.readdirSync(served.engine.files.tempDir), [], 'no temp file left');
});

t.test('GET on an upload endpoint is 405 saying it takes a file', async (t) => {
  const res = await fetch(`${served.url}/api/test/upload?apikey=${TEST_KEY}`);
  t.equal(res.status, 405);
  t.equal(res.headers.get('allow'), 'POST');
  t.match(await res.json(), { error: 'method_not_allowed', message: /^Use POST for this path \(it takes \w+ as a multipart file upload\)$/ });
});

t.test('malformed JSON is 400 invalid_body', async (t) => {
  const cut = await post('/api/test/any', json, '{"data": ');
  isEnvelope(t, cut, 400, 'invalid_body');
  t.match(
    cut.json,
    { message: /not valid JSON/, details: [{ param: 'body', problem: 'not valid JSON' }] },
    'a truncated JSON body is not called a truncated multipart',
  );
  const broken = await post('/api/test/any', json, '{bad json}');
  isEnvelope(t, broken, 400, 'invalid_body');
  t.match(broken.json.message, /not valid JSON/);
});

t.test('nested input that reaches a tool is a 4xx, not a 500 (the shipped JSON formatter)', async (t) => {
  const full = await serve({});
  t.teardown(() => full.close());
  const deep = '['.repeat(200_000) + ']'.repeat(200_000);
  const res = await fetch(`${full.url}/api/tools/jsonformat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
    body: JSON.stringify({ json: deep }),
  });
  t.ok(res.status >= 400 && res.status < 500, `HTTP ${res.status}`);
  t.match(await res.json(), { success: false, error: String });
});

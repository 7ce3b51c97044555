/**
 * Keys before bodies: a key in a header or the query is checked (and counted) before a
 * byte of the body is read; a multipart upload without one is refused at its first
 * file part, before anything is written to DATA_DIR/tmp.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { rawRequest, UPLOAD_MANIFEST } from './raw-http.js';

const MB = 1024 * 1024;
const dir = tempDataDir('manifold-keys-first-');
fs.writeFileSync(path.join(dir, 'upload.yaml'), UPLOAD_MANIFEST);
const served = await serve({ UPLOAD_MAX_BYTES: String(200 * MB) }, { endpoints: loadEndpoints(dir) });
t.teardown(() => served.close());
const tmp = served.engine.files.tempDir;

// every file that appears in the temp dir during the test, however briefly
const seen: string[] = [];
const watcher = fs.watch(tmp, (_event, name) => name && seen.push(name));
t.teardown(() => watcher.close());

const BOUNDARY = 'manifoldtestboundary';
const part = (name: string, value: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const fileHead = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
const uploadHead = (size: number, query = '', headers = '') =>
  `POST /api/test/upload${query} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${size}\r\n${headers}Connection: close\r\n\r\n`;

t.test('a keyless 50 MB upload is refused with 401 before 10 MB are read, and nothing is written', async (t) => {
  const size = 50 * MB;
  const head = uploadHead(size) + fileHead;
  const answer = await rawRequest(served.url, head, { size: size - fileHead.length });
  t.equal(answer.status, 401);
  t.match(answer.json, { status: 401, success: false, error: 'missing_api_key', message: /before the file/ });
  t.ok(answer.sentBeforeAnswer < 10 * MB, `${(answer.sentBeforeAnswer / MB).toFixed(1)} MB sent before the answer`);
  t.same(fs.readdirSync(tmp), [], 'temp dir empty');
  t.same(seen, [], 'no temp file was ever created');
});

t.test('a wrong key in a header is refused before the body is read', async (t) => {
  const size = 50 * MB;
  const answer = await rawRequest(served.url, uploadHead(size, '', 'X-API-Key: wrong\r\n') + fileHead, { size: size - fileHead.length });
  t.equal(answer.status, 401);
  t.match(answer.json, { error: 'invalid_api_key' });
  t.ok(answer.sentBeforeAnswer < 10 * MB, `${(answer.sentBeforeAnswer / MB).toFixed(1)} MB sent before the answer`);
  t.same(seen, []);
});

t.test('an apikey form field after the file, or a wrong one before it, refuses the file unwritten', async (t) => {
  const after = fileHead + 'x'.repeat(1000) + '\r\n' + part('apikey', TEST_KEY) + `--${BOUNDARY}--\r\n`;
  const late = await rawRequest(served.url, uploadHead(after.length) + after);
  t.equal(late.status, 401);
  t.match(late.json, { error: 'missing_api_key' });
  const wrong = part('apikey', 'not-a-key') + fileHead + 'x'.repeat(1000) + `\r\n--${BOUNDARY}--\r\n`;
  const refused = await rawRequest(served.url, uploadHead(wrong.length) + wrong);
  t.equal(refused.status, 401);
  t.match(refused.json, { error: 'invalid_api_key' });
  t.same(seen, []);
});

t.test('the key as a form field before the file still works (docs/using/keys.md), as do header and query keys', async (t) => {
  const form = new FormData();
  form.set('apikey', TEST_KEY);
  form.set('file', new Blob(['hello, upload']), 'hello.txt');
  const res = await fetch(`${served.url}/api/test/upload`, { method: 'POST', body: form });
  t.equal(res.status, 200);
  t.match(await res.json(), { result: { size: 13 } });
  const byHeader = new FormData();
  byHeader.set('file', new Blob(['by header']), 'a.txt');
  t.equal((await fetch(`${served.url}/api/test/upload`, { method: 'POST', body: byHeader, headers: { 'X-API-Key': TEST_KEY } })).status, 200);
  const byQuery = new FormData();
  byQuery.set('file', new Blob(['by query']), 'b.txt');
  t.equal((await fetch(`${served.url}/api/test/upload?apikey=${TEST_KEY}`, { method: 'POST', body: byQuery })).status, 200);
});

t.test('Expect: 100-continue with a wrong key gets its 401 instead of the go-ahead', async (t) => {
  const answer = await rawRequest(served.url, uploadHead(50 * MB, '', 'X-API-Key: wrong\r\nExpect: 100-continue\r\n'));
  t.equal(answer.status, 401, 'no 100 Continue first');
  t.notMatch(answer.raw, /100 Continue/);
});

t.test('a spent key is refused (429) before its upload is read', async (t) => {
  const limited = await serve({ TEST_KEY_RPM: '1' }, { endpoints: loadEndpoints(dir) });
  t.teardown(() => limited.close());
  await fetch(`${limited.url}/api/test/upload?apikey=${TEST_KEY}`, { method: 'POST' });
  const size = 50 * MB;
  const answer = await rawRequest(limited.url, uploadHead(size, `?apikey=${TEST_KEY}`) + fileHead, { size: size - fileHead.length });
  t.equal(answer.status, 429);
  t.ok(answer.sentBeforeAnswer < 10 * MB, `${(answer.sentBeforeAnswer / MB).toFixed(1)} MB sent before the answer`);
  t.same(fs.readdirSync(limited.engine.files.tempDir), []);
});

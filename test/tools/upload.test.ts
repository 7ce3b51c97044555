import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve as serveAll, TEST_KEY } from '../support/serve.js';
import { streamUpload } from './multipart-stream.js';

/** Every regular file under a directory (to prove a rejected upload left nothing behind). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

const MB = 1024 * 1024;
// only the upload endpoint: booting the whole registry for each engine here would dominate the test
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.adapter.kind === 'upload');
const serve = (env: Record<string, string>) => serveAll(env, { endpoints });

t.test('150 MB round-trips byte-identical with UPLOAD_MAX_BYTES at 200 MB', async (t) => {
  const served = await serve({ UPLOAD_MAX_BYTES: String(200 * MB) });
  t.teardown(() => served.close());
  const sent = await streamUpload(`${served.url}/api/tools/upload?apikey=${TEST_KEY}`, {}, 150 * MB);
  t.equal(sent.status, 200, JSON.stringify(sent.json).slice(0, 300));
  t.equal(sent.json.result.size, 150 * MB);
  t.equal(sent.json.result.sha256, sent.sha256, 'server hash = client hash');
  t.equal(sent.json.result.mime, 'application/octet-stream', 'random bytes sniff as unknown binary');
  const res = await fetch(sent.json.result.url);
  t.equal(res.status, 200);
  const hash = crypto.createHash('sha256');
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  t.equal(hash.digest('hex'), sent.sha256, 'downloaded bytes are identical');
  t.same(filesUnder(path.join(served.engine.config.dataDir, 'tmp')), [], 'no temp file left');
});

t.test('over the default 100 MB: 413 payload_too_large and nothing kept', async (t) => {
  const served = await serve({});
  t.teardown(() => served.close());
  const sent = await streamUpload(`${served.url}/api/tools/upload?apikey=${TEST_KEY}`, {}, 150 * MB);
  t.equal(sent.status, 413);
  t.match(sent.json, { success: false, error: 'payload_too_large' });
  // the parser removes its partial file asynchronously after answering
  const dataDir = served.engine.config.dataDir;
  for (let i = 0; i < 50 && filesUnder(path.join(dataDir, 'tmp')).length; i++) await new Promise((r) => setTimeout(r, 100));
  t.same(filesUnder(path.join(dataDir, 'tmp')), [], 'no partial temp file');
  t.same(filesUnder(path.join(dataDir, 'files')), [], 'nothing stored');
});

t.test('the type comes from the bytes, not the name; identical content is stored once', async (t) => {
  const served = await serve({});
  t.teardown(() => served.close());
  const png = fs.readFileSync(new URL('../../endpoints/tools/fixtures/upload-square.png', import.meta.url));
  const send = async (name: string) => {
    const form = new FormData();
    form.set('apikey', TEST_KEY);
    form.set('file', new Blob([png], { type: 'text/plain' }), name);
    return (await fetch(`${served.url}/api/tools/upload`, { method: 'POST', body: form })).json();
  };
  const a = await send('claims-to-be.txt');
  const b = await send('other-name.exe');
  t.equal(a.result.mime, 'image/png');
  t.equal(a.result.ext, 'png');
  t.equal(a.result.url, b.result.url, 'same content, same URL');
  t.equal(filesUnder(path.join(served.engine.config.dataDir, 'files')).length, 1);
});

t.test('hosted SVG is a sandboxed attachment, and the file survives a restart', async (t) => {
  const dataDir = fs.mkdtempSync(path.join((await import('node:os')).tmpdir(), 'manifold-upload-'));
  const first = await serve({ DATA_DIR: dataDir });
  const form = new FormData();
  form.set('apikey', TEST_KEY);
  form.set('file', new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']), 'x.svg');
  const { result } = await (await fetch(`${first.url}/api/tools/upload`, { method: 'POST', body: form })).json();
  await first.close();
  const second = await serve({ DATA_DIR: dataDir });
  t.teardown(() => second.close());
  const res = await fetch(`${second.url}/files/${path.basename(result.url)}`);
  t.equal(res.status, 200, 'served after restart');
  t.match(res.headers.get('content-security-policy'), /sandbox/);
  t.match(res.headers.get('content-disposition'), /^attachment/);
});

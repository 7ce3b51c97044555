/** The engine with S3_BUCKET set: uploads go to the bucket and come back through /files, byte-identical. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { filesUnder } from '../../engine/platform/storage/disk-usage.js';
import { PART_SIZE } from '../../engine/platform/storage/s3-files.js';
import { serve as serveAll, TEST_KEY } from '../support/serve.js';
import { streamUpload } from '../tools/multipart-stream.js';
import { BUCKET, startLocalS3 } from './s3-server.js';

const s3 = await startLocalS3();
t.teardown(() => s3.close());
// only the upload endpoint: the rest of the registry plays no part here
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.adapter.kind === 'upload');
const serve = async (env: Record<string, string> = {}) => {
  const served = await serveAll({ ...s3.env, ...env }, { endpoints });
  t.teardown(() => served.close());
  return served;
};

async function hashOf(res: Response): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}

const upload = async (url: string, body: Blob, name: string) => {
  const form = new FormData();
  form.set('apikey', TEST_KEY);
  form.set('file', body, name);
  return (await fetch(`${url}/api/tools/upload`, { method: 'POST', body: form })).json();
};

t.test('a multipart upload lands in the bucket (pinned) and downloads byte-identical via result.url', async (t) => {
  const served = await serve();
  const size = 3 * PART_SIZE + 777;
  const sent = await streamUpload(`${served.url}/api/tools/upload?apikey=${TEST_KEY}`, {}, size);
  t.equal(sent.status, 200, JSON.stringify(sent.json).slice(0, 300));
  const { result } = sent.json;
  t.equal(result.size, size);
  t.equal(result.sha256, sent.sha256);
  t.equal(result.url, `${served.url}/files/${sent.sha256}.bin`);

  const res = await fetch(result.url);
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-length'), String(size));
  t.equal(await hashOf(res), sent.sha256, 'downloaded bytes are identical');

  const part = await fetch(result.url, { headers: { range: 'bytes=100-199' } });
  t.equal(part.status, 206);
  t.equal(part.headers.get('content-range'), `bytes 100-199/${size}`);
  t.equal((await part.arrayBuffer()).byteLength, 100);
  t.equal((await fetch(result.url, { headers: { range: `bytes=${size}-` } })).status, 416);
  const head = await fetch(result.url, { method: 'HEAD' });
  t.equal(head.headers.get('content-length'), String(size), 'HEAD answers from the metadata');

  const key = `/${BUCKET}/files/${sent.sha256}.bin`;
  t.ok(
    s3.requests.some((r) => r.method === 'PUT' && r.url.startsWith(`${key}?`) && /partNumber=/.test(r.url)),
    'sent in parts',
  );
  t.ok(
    s3.requests.some((r) => r.method === 'PUT' && r.url.split('?')[0] === `/${BUCKET}/pins/${sent.sha256}.bin`),
    'uploads are pinned',
  );
  t.equal(await served.engine.files.removeUnpinned(`${sent.sha256}.bin`), false, 'an expiring cache cannot remove it');

  const dataDir = served.engine.config.dataDir;
  t.notOk(fs.existsSync(path.join(dataDir, 'files')), 'nothing on local disk');
  t.same(await filesUnder(path.join(dataDir, 'tmp')), [], 'no temp file left');
});

t.test('active content is proxied with the sandbox even with a public bucket; other files redirect there', async (t) => {
  const served = await serve({ S3_PUBLIC_URL: `${s3.endpoint}/${BUCKET}` });
  const svg = await upload(served.url, new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']), 'x.svg');
  const proxied = await fetch(svg.result.url, { redirect: 'manual' });
  t.equal(proxied.status, 200, 'not redirected');
  t.match(proxied.headers.get('content-security-policy'), /sandbox/);
  t.match(proxied.headers.get('content-disposition'), /^attachment/);
  t.match(await proxied.text(), /<script>/);

  const png = fs.readFileSync(new URL('../../endpoints/tools/fixtures/upload-square.png', import.meta.url));
  const image = await upload(served.url, new Blob([png]), 'square.png');
  const name = path.basename(image.result.url);
  const redirected = await fetch(image.result.url, { redirect: 'manual' });
  t.equal(redirected.status, 302);
  t.equal(redirected.headers.get('location'), `${s3.endpoint}/${BUCKET}/files/${name}`);
  const followed = await fetch(image.result.url);
  t.equal(followed.headers.get('content-type'), 'image/png');
  t.same(Buffer.from(await followed.arrayBuffer()), png, 'the public copy is the upload');

  const missing = await fetch(`${served.url}/files/${'0'.repeat(64)}.png`, { redirect: 'manual' });
  t.equal(missing.status, 404, 'unknown names are not redirected');
});

/**
 * A multipart part that names a file but carries no Content-Type of its own is still a
 * file (engine/pipeline/body.ts; RFC 7578 makes a file's type optional, and some bot
 * libraries leave it out): before, formidable took it for a text field and the upload
 * answered `400 missing_parameter: file`. Whether the key comes in a header or as a form
 * field before the file (the path that checks it at the first file part).
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { serve, tempDataDir, TEST_KEY } from '../support/serve.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { UPLOAD_MANIFEST } from './raw-http.js';

const dir = tempDataDir('manifold-file-part-');
fs.writeFileSync(path.join(dir, 'upload.yaml'), UPLOAD_MANIFEST);
const served = await serve({}, { endpoints: loadEndpoints(dir) });
t.teardown(() => served.close());

const BOUNDARY = 'manifold-boundary';
const bytes = Buffer.from('%PDF-1.4 a small file without its own type\n');
const body = (fields: Record<string, string>) =>
  Buffer.concat([
    Buffer.from(
      Object.entries(fields)
        .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join(''),
    ),
    // no Content-Type line in this part
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.pdf"\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
const upload = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${served.url}/api/test/upload`, {
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    body: body(fields),
  });

for (const [how, fields, headers] of [
  ['the key in a header', {}, { 'X-API-Key': TEST_KEY }],
  ['the key as a form field before the file', { apikey: TEST_KEY }, {}],
] as const) {
  t.test(`a file part without Content-Type is uploaded (${how})`, async (t) => {
    const res = await upload(fields, headers);
    const json = (await res.json()) as { result: { size?: number; url?: string } };
    t.equal(res.status, 200, JSON.stringify(json).slice(0, 200));
    t.match(json.result, { size: bytes.length });
  });
}

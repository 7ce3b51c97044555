import path from 'node:path';
import { Readable } from 'node:stream';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { ownFileReader } from '../../engine/platform/http/own-files.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';

// the SSRF guard's defaults: the server's own loopback address is refused like any private one
const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => ['/api/tools/createqr', '/api/tools/readqr'].includes(e.path));
const served = await serve({ ALLOW_PRIVATE_URLS: undefined }, { endpoints });
t.teardown(() => served.close());
const get = async (route: string, params: Record<string, string>) =>
  (await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } })).json();

t.test("a link to this server's own file is read from the store, private address or not", async (t) => {
  const made = await get('/api/tools/createqr', { text: 'chained call', hosted: 'true' });
  t.match(made.result, new RegExp(`^${served.url}/files/[0-9a-f]{64}\\.png$`));
  const read = await get('/api/tools/readqr', { url: made.result });
  t.equal(read.status, 200);
  t.equal(read.result?.text, 'chained call');
});

t.test('only names the store holds are read; anything else under /files/ is a 400 naming the param', async (t) => {
  const missing = await get('/api/tools/readqr', { url: `${served.url}/files/${'0'.repeat(64)}.png` });
  t.match(missing, { status: 400, error: 'invalid_parameter', message: /url.*no such file on this server/ });
  for (const sneaky of ['..%2F..%2Fetc%2Fpasswd', '%2e%2e%2fpackage.json', 'package.json']) {
    const answer = await get('/api/tools/readqr', { url: `${served.url}/files/${sneaky}` });
    t.equal(answer.status, 400, sneaky);
  }
});

t.test('another port on the same host is not ours: the SSRF guard still refuses it', async (t) => {
  const port = Number(new URL(served.url).port);
  const other = `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}/files/${'0'.repeat(64)}.png`;
  t.match(await get('/api/tools/readqr', { url: other }), { status: 400, error: 'unsupported_url' });
});

t.test('the reader: our base URL and path prefix only, the size limit held before reading', async (t) => {
  const opened: string[] = [];
  const store = {
    async open(name: string) {
      opened.push(name);
      return name === 'a.png' ? { size: 10, read: async () => Readable.from([Buffer.alloc(10)]) } : undefined;
    },
  };
  const read = ownFileReader('https://api.example.com/base/', store);
  t.equal(await read('https://api.example.com/files/a.png', { timeoutMs: 1000, maxBytes: 100 }), undefined, 'outside the base path');
  t.equal(await read('http://api.example.com/base/files/a.png', { timeoutMs: 1000, maxBytes: 100 }), undefined, 'another scheme');
  t.equal(await read('https://api.example.com/base/files/x/a.png', { timeoutMs: 1000, maxBytes: 100 }), undefined, 'a deeper path');
  t.same(opened, [], 'nothing opened for URLs that are not ours');
  const ok = await read('https://api.example.com/base/files/a.png?download=1', { timeoutMs: 1000, maxBytes: 100 });
  t.equal(ok?.contentType, 'image/png');
  t.equal(ok?.contentLength, 10);
  await t.rejects(read('https://api.example.com/base/files/a.png', { param: 'image', timeoutMs: 1000, maxBytes: 5 }), {
    status: 400,
    message: /image.*too large/,
  });
  await t.rejects(read('https://api.example.com/base/files/b.png', { param: 'image', timeoutMs: 1000, maxBytes: 100 }), {
    status: 400,
    message: /image.*no such file/,
  });
});

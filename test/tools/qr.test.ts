import path from 'node:path';
import t from 'tap';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => ['/api/tools/createqr', '/api/tools/readqr'].includes(e.path));
const served = await serve({}, { endpoints });
t.teardown(() => served.close());
const get = async (route: string, params: Record<string, string>) =>
  (await fetch(`${served.url}${route}?${new URLSearchParams(params)}`, { headers: { 'x-api-key': TEST_KEY } })).json();

t.test('a QR code made here reads back to the same text (PNG and SVG)', async (t) => {
  const text = 'https://example.com/?q=manifold ünïcode';
  for (const format of ['png', 'svg']) {
    const made = await get('/api/tools/createqr', { text, format, color: '#123456', background: '#ffffee', hosted: 'true' });
    t.match(made.result, new RegExp(`/files/[0-9a-f]{64}\\.${format}$`));
    const read = await get('/api/tools/readqr', { url: made.result });
    t.equal(read.result?.text, text, `${format} decodes`);
  }
});

t.test('an image without a code is 404; a non-image is 400', async (t) => {
  const page = `${served.url}/api/tools/createqr?text=x&hosted=true&apikey=${TEST_KEY}`; // JSON (the link), not an image
  t.match(await get('/api/tools/readqr', { url: page }), { status: 400, error: 'invalid_parameter' });
  const blank = await get('/api/tools/createqr', { text: 'y', color: '#ffffff', background: '#ffffff', hosted: 'true' });
  t.match(await get('/api/tools/readqr', { url: blank.result }), { status: 404, error: 'not_found' });
});

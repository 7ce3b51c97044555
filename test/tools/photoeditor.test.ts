/**
 * AI photo editing (/api/tools/photoeditor and kin, /api/tools/reimagine) against a stand-in
 * OpenAI-compatible server that reads the multipart request as OpenAI's POST /v1/images/edits
 * does and answers in OpenAI's own formats: what the manifest examples cannot show (the parts
 * sent, the photo converted to PNG and bounded, a provider link fetched for the bytes).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import t from 'tap';
import { serveEndpoints } from '../search/serve-endpoints.js';

interface Seen {
  path: string;
  authorization?: string;
  fields: Record<string, string>;
  image?: { type: string; name: string; bytes: Buffer };
}

const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** The stand-in: `/v1/images/edits` answers with `answer(base)`, `/files/edited.png` serves a picture. */
async function fakeImageApi(t: { teardown(fn: () => unknown): void }, answer: (base: string) => { status: number; json: unknown }) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (req.url === '/files/edited.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(
        await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366cc' } })
          .png()
          .toBuffer(),
      );
      return;
    }
    const form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': String(req.headers['content-type']) } }).formData();
    const fields: Record<string, string> = {};
    let image: Seen['image'];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') fields[name] = value;
      else image = { type: value.type, name: value.name, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization, fields, image });
    const { status, json } = answer(base);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

/** A 2000×1000 photo as a data URL (the endpoint fetches nothing for it; a flat PNG keeps the query string short). */
const photo = async () =>
  `data:image/png;base64,${(
    await sharp({ create: { width: 2000, height: 1000, channels: 3, background: '#aa5500' } })
      .png({ palette: true, compressionLevel: 9 })
      .toBuffer()
  ).toString('base64')}`;

const MANIFESTS = { files: ['tools/photoeditor.yaml', 'tools/reimagine.yaml'] };

t.test('photoeditor sends OpenAI multipart parts and answers the hosted picture of a b64_json answer', async (t) => {
  const api = await fakeImageApi(t, () => ({
    status: 200,
    json: { created: 1700000000, data: [{ b64_json: PIXEL.toString('base64') }], usage: { input_tokens: 50, output_tokens: 272, total_tokens: 322 } },
  }));
  const served = await serveEndpoints(t, { ...MANIFESTS, env: { OPENAI_BASE_URL: api.baseUrl, OPENAI_API_KEY: 'sk-test' } });
  for (const path of ['/api/tools/photoeditor', '/api/tools/nanobanana', '/api/tools/imageeditor']) {
    const res = await served.get(path, { url: await photo(), prompt: 'make the sky a sunset', model: 'v2' });
    const body = await res.json();
    t.equal(res.status, 200, path);
    t.match(body.result, /\/files\/[0-9a-f]{64}\.png$/, `${path}: result is the hosted picture's link`);
  }
  const first = api.seen[0];
  t.equal(first.path, '/v1/images/edits');
  t.equal(first.authorization, 'Bearer sk-test');
  t.same({ ...first.fields }, { model: 'gpt-image-1', prompt: 'make the sky a sunset', n: '1' });
  t.equal(first.image?.type, 'image/png');
  const meta = await sharp(first.image!.bytes).metadata();
  t.same([meta.format, meta.width, meta.height], ['png', 1024, 512], 'the photo went as a PNG of at most 1024 px a side');
});

t.test("reimagine answers the picture's bytes, fetched from a provider link, with its own instruction", async (t) => {
  const api = await fakeImageApi(t, (base) => ({ status: 200, json: { created: 1700000000, data: [{ url: `${base}/files/edited.png` }] } }));
  const served = await serveEndpoints(t, { ...MANIFESTS, env: { OPENAI_BASE_URL: api.baseUrl, ALLOW_PRIVATE_URLS: '1' } });
  const res = await served.get('/api/tools/reimagine', { url: await photo() });
  t.equal(res.status, 200);
  t.equal(res.headers.get('content-type'), 'image/png');
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  t.same([meta.width, meta.height], [32, 24], 'the provider picture itself');
  t.match(api.seen[0].fields.prompt, /^Reimagine this picture/);
  const hosted = await (await served.get('/api/tools/reimagine', { url: await photo(), hosted: 'true' })).json();
  t.equal(hosted.result, `${api.baseUrl.replace('/v1', '')}/files/edited.png`, "hosted=true: the provider's link");
});

t.test("the provider's refusal is a 502 naming it; no provider is a 503 naming the variable", async (t) => {
  const api = await fakeImageApi(t, () => ({
    status: 400,
    json: {
      error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' },
    },
  }));
  const served = await serveEndpoints(t, { ...MANIFESTS, env: { OPENAI_BASE_URL: api.baseUrl } });
  t.match(await (await served.get('/api/tools/photoeditor', { url: await photo(), prompt: 'x' })).json(), { status: 502, error: 'upstream_error' });
  const off = await serveEndpoints(t, { ...MANIFESTS, env: {} });
  t.match(await (await off.get('/api/tools/photoeditor', { url: await photo(), prompt: 'x' })).json(), {
    status: 503,
    error: 'unavailable',
    message: /OPENAI_BASE_URL/,
  });
});

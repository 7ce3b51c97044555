import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import sharp from 'sharp';
import { ENDPOINTS_DIR } from '../../engine/app/app.js';
import { loadEndpoints } from '../../engine/catalog/load.js';
import { serve, TEST_KEY } from '../support/serve.js';

/**
 * /api/tools/magiceraser against a stand-in IOPaint that keeps IOPaint's contract
 * (POST /api/v1/inpaint, JSON {image, mask} in base64, 400 when the sizes differ,
 * the mask thresholded at 127, a PNG back): what the handler sends must pass it. The
 * stand-in paints the masked pixels pure green, so the answer shows where the mask
 * landed on the photo.
 */
interface Received {
  image: { width: number; height: number; format?: string };
  mask: { width: number; height: number; channels: number; values: Set<number> };
}
const received: Received[] = [];

async function inpaint(body: { image: string; mask: string }): Promise<{ status: number; type: string; data: Buffer }> {
  const image = sharp(Buffer.from(body.image, 'base64'));
  const imageMeta = await image.metadata();
  const maskBytes = Buffer.from(body.mask, 'base64');
  const maskChannels = (await sharp(maskBytes).metadata()).channels!;
  const mask = await sharp(maskBytes).raw().toBuffer({ resolveWithObject: true });
  received.push({
    image: { width: imageMeta.width!, height: imageMeta.height!, format: imageMeta.format },
    mask: { width: mask.info.width, height: mask.info.height, channels: maskChannels, values: new Set(mask.data) },
  });
  if (imageMeta.width !== mask.info.width || imageMeta.height !== mask.info.height) {
    const detail = `Image size(${imageMeta.height}, ${imageMeta.width}) and mask size(${mask.info.height}, ${mask.info.width}) not match.`;
    return { status: 400, type: 'application/json', data: Buffer.from(JSON.stringify({ error: 'HTTPException', detail, body: '', errors: detail })) };
  }
  const rgb = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < mask.info.width * mask.info.height; i++) {
    if (mask.data[i * mask.info.channels] > 127) rgb.data.set([0, 255, 0], i * 3);
  }
  const png = await sharp(rgb.data, { raw: { width: rgb.info.width, height: rgb.info.height, channels: 3 } })
    .png()
    .toBuffer();
  return { status: 200, type: 'image/png', data: png };
}

// a JPEG stored 40×20 whose EXIF says "rotate 90°": upright it is 20×40, as phones send photos
const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#808080' } })
  .jpeg()
  .withMetadata({ orientation: 6 })
  .toBuffer();
// a mask drawn on a half-size upright thumbnail (10×20): its top half is white, with an alpha channel
const maskPng = await sharp({ create: { width: 10, height: 20, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
  .composite([
    {
      input: await sharp({ create: { width: 10, height: 10, channels: 4, background: '#ffffffff' } })
        .png()
        .toBuffer(),
      left: 0,
      top: 0,
    },
  ])
  .png()
  .toBuffer();

const server = http.createServer(async (req, res) => {
  if (req.url === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo);
  if (req.url === '/mask.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(maskPng);
  if (req.method === 'POST' && req.url === '/api/v1/inpaint') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await inpaint(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    return res.writeHead(answer.status, { 'content-type': answer.type, 'x-seed': '42' }).end(answer.data);
  }
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
t.teardown(() => new Promise((resolve) => server.close(resolve)));

const endpoints = loadEndpoints(path.join(ENDPOINTS_DIR, 'tools')).filter((e) => e.path === '/api/tools/magiceraser');
const served = await serve({ IOPAINT_URL: base }, { endpoints });
t.teardown(() => served.close());

const call = (params: Record<string, string>) => fetch(`${served.url}/api/tools/magiceraser?${new URLSearchParams({ apikey: TEST_KEY, ...params })}`);

t.test('the photo goes upright, the mask is stretched to it and made black and white', async (t) => {
  received.length = 0;
  const res = await call({ url: `${base}/photo.jpg`, mask: `${base}/mask.png`, stream: 'true' });
  t.equal(res.status, 200, res.status === 200 ? 'HTTP 200' : await res.text());
  t.equal(res.headers.get('content-type'), 'image/png');
  t.equal(received.length, 1, 'one inpaint call');
  t.match(received[0].image, { width: 20, height: 40, format: 'png' }, 'the photo upright, as PNG');
  t.match(received[0].mask, { width: 20, height: 40, channels: 1 }, 'a one-channel (grey) mask of the same size');
  t.same(
    [...received[0].mask.values].sort((a, b) => a - b),
    [0, 255],
    'only black and white',
  );
  const out = await sharp(Buffer.from(await res.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
  t.match(out.info, { width: 20, height: 40 });
  const pixel = (x: number, y: number) => [...out.data.subarray((y * 20 + x) * out.info.channels, (y * 20 + x) * out.info.channels + 3)];
  t.same(pixel(10, 5), [0, 255, 0], 'the top half (white in the mask) was repainted');
  t.not(pixel(10, 35)[1], 255, 'the bottom half (transparent in the mask) was kept');
});

t.test('a data: URL mask, hosted answer', async (t) => {
  const res = await call({ url: `${base}/photo.jpg`, mask: `data:image/png;base64,${maskPng.toString('base64')}` });
  const body = (await res.json()) as { result: Record<string, unknown> };
  t.equal(res.status, 200);
  t.match(body.result, { engine: 'iopaint', format: 'png', width: 20, height: 40, image_url: /^http/ });
});

t.test('unreadable pictures are the client’s error, named', async (t) => {
  const notImage = `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`;
  for (const param of ['url', 'mask']) {
    const res = await call({ url: `${base}/photo.jpg`, mask: `${base}/mask.png`, [param]: notImage });
    const body = (await res.json()) as { error: string; message: string };
    t.equal(res.status, 400, param);
    t.equal(body.error, 'invalid_parameter');
    t.match(body.message, param);
  }
});

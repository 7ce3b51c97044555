import t from 'tap';
import sharp, { type OutputInfo } from 'sharp';
import { runImageOp, MAX_SIDE, type ImageOp } from '../../engine/features/effects/image-ops.js';
import { bombPng, testPhoto } from './support.js';

const photo = testPhoto(120, 80);
const run = (op: ImageOp, params: Record<string, unknown> = {}, input: Buffer = photo) => runImageOp({ op, params, input });
const raw = async (buf: Buffer) => sharp(buf).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
const px = (r: { data: Buffer; info: OutputInfo }, x: number, y: number) => [...r.data.subarray((y * r.info.width + x) * 4, (y * r.info.width + x) * 4 + 4)];

t.test('grayscale, invert and sepia recolour every pixel', async (t) => {
  const src = await raw(photo);
  const grey = await raw((await run('grayscale')).data);
  t.equal(px(grey, 10, 10)[0], px(grey, 10, 10)[2], 'r = b after grayscale');
  const inv = await raw((await run('invert')).data);
  for (const [x, y] of [
    [5, 5],
    [60, 70],
  ])
    t.same(
      px(inv, x, y).slice(0, 3),
      px(src, x, y)
        .slice(0, 3)
        .map((v) => 255 - v),
      `inverted at ${x},${y}`,
    );
  const sep = await raw((await run('sepia')).data);
  const [r, g, b] = px(sep, 5, 5);
  t.ok(r >= g && g >= b, 'sepia is warm');
});

t.test('geometry: rotate, flip, mirror, resize, circle', async (t) => {
  t.match(await run('rotate', { angle: 90 }), { width: 80, height: 120 });
  const src = await raw(photo);
  t.same(px(await raw((await run('flip')).data), 0, 0), px(src, 0, 79), 'flip moves the bottom row up');
  t.same(px(await raw((await run('mirror')).data), 0, 0), px(src, 119, 0), 'mirror moves the right column left');
  t.match(await run('resize', { width: 60 }), { width: 60, height: 40 });
  t.match(await run('resize', { width: 50, height: 50, fit: 'fill' }), { width: 50, height: 50 });
  const circle = await raw((await run('circle')).data);
  t.equal(circle.info.width, circle.info.height, 'square');
  t.equal(px(circle, 0, 0)[3], 0, 'transparent corner');
  t.equal(px(circle, 40, 40)[3], 255, 'opaque centre');
});

t.test('pixelate makes uniform blocks; blur and adjust change pixels', async (t) => {
  const big = testPhoto(240, 160);
  const p = await raw((await run('pixelate', { size: 20 }, big)).data);
  t.same(px(p, 1, 1), px(p, 18, 18), 'one block, one colour');
  for (const [op, params] of [
    ['blur', { radius: 4 }],
    ['adjust', { brightness: 1.5 }],
    ['deepfry', {}],
  ] as const) {
    const out = await raw((await run(op, params)).data);
    t.notSame(out.data, (await raw(photo)).data, op);
  }
});

t.test('formats and size caps', async (t) => {
  const jpg = await run('grayscale', { format: 'jpg' });
  t.equal(jpg.contentType, 'image/jpeg');
  t.equal((await sharp(jpg.data).metadata()).format, 'jpeg');
  t.equal((await run('grayscale', { format: 'webp' })).contentType, 'image/webp');
  t.ok(MAX_SIDE <= 4096);
  const grown = await run('resize', { width: 4096, height: 4096, fit: 'fill' });
  t.ok(grown.width <= MAX_SIDE && grown.height <= MAX_SIDE, 'outputs stay within MAX_SIDE');
});

t.test('meme captions and the triggered GIF', async (t) => {
  const plain = await raw((await run('resize', { width: 120 })).data);
  const meme = await run('meme', { top: 'Top text', bottom: 'Bottom text' });
  t.equal(meme.width, 120);
  const m = await raw(meme.data);
  t.notSame(px(m, 60, 8), px(plain, 60, 8), 'a caption is drawn at the top');
  const gif = await run('triggered');
  t.equal(gif.contentType, 'image/gif');
  const meta = await sharp(gif.data, { animated: true }).metadata();
  t.match(meta, { format: 'gif', pages: 8, width: 256 });
});

t.test('photos that are not images, or are too many pixels, are reported as unreadable', async (t) => {
  await t.rejects(run('grayscale', {}, Buffer.from('<html></html>')), { code: 'photo_unreadable' });
  await t.rejects(run('grayscale', {}, bombPng(10_000, 5_000)), { code: 'photo_unreadable', message: /pixel limit/ });
});

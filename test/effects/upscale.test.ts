import t from 'tap';
import sharp from 'sharp';
import { upscale, enhance, closeUpscalePool } from '../../engine/features/effects/upscale.js';
import { TILE_SIDE } from '../../engine/features/effects/esrgan-tiles.js';
import { testPhoto } from './support.js';
import { EngineScope } from '../../engine/platform/scope.js';
import { loadConfig } from '../../engine/platform/config.js';

const services = { scope: new EngineScope() };
t.teardown(() => closeUpscalePool(services));
const photo = testPhoto(40, 30);

t.test('lanczos 2x and 4x', async (t) => {
  t.match(await upscale(photo, 'lanczos-2x', 'png', services), { width: 80, height: 60, contentType: 'image/png' });
  const four = await upscale(photo, 'lanczos-4x', 'jpg', services);
  t.match(four, { width: 160, height: 120, contentType: 'image/jpeg' });
  t.equal((await sharp(four.data).metadata()).format, 'jpeg');
});

t.test('ESRGAN-slim runs offline from the packaged weights and differs from resampling', async (t) => {
  const neural = await upscale(photo, 'esrgan-slim-2x', 'png', services);
  t.match(neural, { width: 80, height: 60 });
  const a = await sharp(neural.data).removeAlpha().raw().toBuffer();
  const b = await sharp((await upscale(photo, 'lanczos-2x', 'png', services)).data)
    .removeAlpha()
    .raw()
    .toBuffer();
  t.equal(a.length, b.length);
  t.notSame(a, b, 'the network output is not a plain resample');
  // Same content: the mean absolute difference stays small.
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
  t.ok(diff / a.length < 20, `close to the resampled image (mean diff ${(diff / a.length).toFixed(1)})`);
});

t.test("MEMORY_PROFILE=small's smaller tiles without onnxruntime's arena give the same pixels", async (t) => {
  const small = { scope: new EngineScope(), config: loadConfig({ MEMORY_PROFILE: 'small' }) };
  t.teardown(() => closeUpscalePool(small));
  t.same(small.config.memory.neural, { tileSide: 64, arena: false });
  // 150×100: six 64-pixel tiles against two of 128
  const input = testPhoto(150, 100);
  const [a, b] = [await upscale(input, 'esrgan-slim-2x', 'png', services), await upscale(input, 'esrgan-slim-2x', 'png', small)];
  t.match(b, { width: 300, height: 200 });
  t.ok(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data)) === 0, 'the same PNG');
});

t.test('limits: neural results up to 2048×2048, output size, unreadable input', async (t) => {
  // 1024×1024 at 2× and 512×512 at 4× are the largest; one pixel more is refused, naming the parameter
  await t.rejects(upscale(testPhoto(1025, 1024), 'esrgan-slim-2x', 'png', services), { status: 400, code: 'invalid_parameter', message: /url.*2048×2048/s });
  await t.rejects(upscale(testPhoto(512, 513), 'esrgan-slim-4x', 'png', services), { status: 400, code: 'invalid_parameter', message: /2048×2052/ });
  await t.rejects(upscale(testPhoto(683, 683), 'esrgan-slim-3x', 'png', services), { status: 400, code: 'invalid_parameter' });
  await t.rejects(upscale(testPhoto(1100, 50), 'lanczos-4x', 'png', services), { status: 400, code: 'invalid_parameter', message: /4096/ });
  await t.rejects(upscale(Buffer.from('nope'), 'lanczos-2x', 'png', services), { status: 400, code: 'invalid_parameter' });
});

t.test('enhance: ESRGAN-medium ×4 plus sharpening, close to the photo but not a resample', async (t) => {
  const enhanced = await enhance(photo, 'png', undefined, services);
  t.match(enhanced, { width: 160, height: 120, contentType: 'image/png', input: { width: 40, height: 30 } });
  const a = await sharp(enhanced.data).removeAlpha().raw().toBuffer();
  const b = await sharp((await upscale(photo, 'lanczos-4x', 'png', services)).data)
    .removeAlpha()
    .raw()
    .toBuffer();
  t.notSame(a, b);
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
  t.ok(diff / a.length < 25, `same picture (mean diff ${(diff / a.length).toFixed(1)})`);
});

t.test('enhance: a photo over the pixel budget is reduced before the network', async (t) => {
  // 40×30 = 1,200 pixels over a 300 budget: ×0.5 to 20×15, ×4 to 80×60
  t.match(await enhance(photo, 'jpg', 300, services), { width: 80, height: 60, contentType: 'image/jpeg', input: { width: 40, height: 30 } });
  await t.rejects(enhance(Buffer.from('nope'), 'png', undefined, services), { status: 400, code: 'invalid_parameter' });
});

t.test('an image over the old 256×256 limit runs in tiles without seams', async (t) => {
  // 300×240 was refused before #21 (65,536 pixels at most); two tiles across, two down
  const width = TILE_SIDE + 172,
    height = TILE_SIDE + 112;
  const photo = testPhoto(width, height);
  const out = await upscale(photo, 'esrgan-slim-2x', 'png', services);
  t.match(out, { width: width * 2, height: height * 2 });
  const rgb = await sharp(out.data).removeAlpha().raw().toBuffer();
  const ref = await sharp(photo)
    .removeAlpha()
    .resize(width * 2, height * 2, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  // the rows and columns either side of each tile boundary are as close to a resample as the rest
  const diff = (inBand: (x: number, y: number) => boolean) => {
    let sum = 0,
      n = 0;
    for (let y = 0; y < height * 2; y++)
      for (let x = 0; x < width * 2; x++)
        if (inBand(x, y)) for (let c = 0; c < 3; c++, n++) sum += Math.abs(rgb[(y * width * 2 + x) * 3 + c] - ref[(y * width * 2 + x) * 3 + c]);
    return sum / n;
  };
  const edge = TILE_SIDE * 2;
  const seam = diff((x, y) => Math.abs(x - edge) < 2 || Math.abs(y - edge) < 2),
    overall = diff(() => true);
  t.ok(seam < overall * 2 + 4, `no seam at the tile edges (${seam.toFixed(1)} there, ${overall.toFixed(1)} overall)`);
});

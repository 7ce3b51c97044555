import t from 'tap';
import sharp from 'sharp';
import { upscale, enhance, closeUpscalePool, NEURAL_MAX_PIXELS } from '../../engine/features/effects/upscale.js';
import runEsrgan, { TILE } from '../../engine/features/effects/esrgan-worker.js';
import { testPhoto } from './support.js';

t.teardown(closeUpscalePool);
const photo = testPhoto(40, 30);

t.test('lanczos 2x and 4x', async (t) => {
  t.match(await upscale(photo, 'lanczos-2x', 'png'), { width: 80, height: 60, contentType: 'image/png' });
  const four = await upscale(photo, 'lanczos-4x', 'jpg');
  t.match(four, { width: 160, height: 120, contentType: 'image/jpeg' });
  t.equal((await sharp(four.data).metadata()).format, 'jpeg');
});

t.test('ESRGAN-slim runs offline from the packaged weights and differs from resampling', async (t) => {
  const neural = await upscale(photo, 'esrgan-slim-2x', 'png');
  t.match(neural, { width: 80, height: 60 });
  const a = await sharp(neural.data).removeAlpha().raw().toBuffer();
  const b = await sharp((await upscale(photo, 'lanczos-2x', 'png')).data)
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

t.test('limits: neural input size, output size, unreadable input', async (t) => {
  const side = Math.ceil(Math.sqrt(NEURAL_MAX_PIXELS)) + 8;
  await t.rejects(upscale(testPhoto(side, side), 'esrgan-slim-2x', 'png'), { status: 400, code: 'invalid_parameter' });
  await t.rejects(upscale(testPhoto(1100, 50), 'lanczos-4x', 'png'), { status: 400, code: 'invalid_parameter', message: /4096/ });
  await t.rejects(upscale(Buffer.from('nope'), 'lanczos-2x', 'png'), { status: 400, code: 'invalid_parameter' });
});

t.test('enhance: ESRGAN-medium ×4 plus sharpening, close to the photo but not a resample', async (t) => {
  const enhanced = await enhance(photo, 'png');
  t.match(enhanced, { width: 160, height: 120, contentType: 'image/png', input: { width: 40, height: 30 } });
  const a = await sharp(enhanced.data).removeAlpha().raw().toBuffer();
  const b = await sharp((await upscale(photo, 'lanczos-4x', 'png')).data)
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
  t.match(await enhance(photo, 'jpg', 300), { width: 80, height: 60, contentType: 'image/jpeg', input: { width: 40, height: 30 } });
  await t.rejects(enhance(Buffer.from('nope'), 'png'), { status: 400, code: 'invalid_parameter' });
});

t.test('images wider than a tile run in tiles without seams', async (t) => {
  const width = TILE + 40,
    height = 24;
  const rgb = await sharp(testPhoto(width, height)).removeAlpha().raw().toBuffer();
  const out = await runEsrgan({ model: 'slim', scale: 2, rgb, width, height });
  t.match(out, { width: width * 2, height: height * 2 });
  const ref = await sharp(rgb, { raw: { width, height, channels: 3 } })
    .resize(width * 2, height * 2, { kernel: 'lanczos3' })
    .raw()
    .toBuffer();
  // the columns either side of the tile boundary are as close to a resample as the rest
  const columnDiff = (x0: number, x1: number) => {
    let sum = 0,
      n = 0;
    for (let y = 0; y < height * 2; y++)
      for (let x = x0; x < x1; x++) for (let c = 0; c < 3; c++, n++) sum += Math.abs(out.rgb[(y * width * 2 + x) * 3 + c] - ref[(y * width * 2 + x) * 3 + c]);
    return sum / n;
  };
  const seam = columnDiff(TILE * 2 - 2, TILE * 2 + 2),
    overall = columnDiff(0, width * 2);
  t.ok(seam < overall * 2 + 4, `no seam at the tile edge (${seam.toFixed(1)} there, ${overall.toFixed(1)} overall)`);
});

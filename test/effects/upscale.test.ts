import t from 'tap';
import sharp from 'sharp';
import { upscale, closeUpscalePool, NEURAL_MAX_PIXELS } from '../../engine/effects/upscale.js';
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
  const b = await sharp((await upscale(photo, 'lanczos-2x', 'png')).data).removeAlpha().raw().toBuffer();
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

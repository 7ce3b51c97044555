import crypto from 'node:crypto';
import { fetchPhoto } from '../../../features/effects/photo-input.js';
import { imageAnswer, renderedFile } from '../../../features/effects/deliver.js';
import { handler } from '../../../contract/handler.js';
import { hosted } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/remini (and imageenhancer): ESRGAN-medium ×4 plus light sharpening, in
 * the neural worker (engine/features/effects/upscale.ts). Identical requests (same photo and
 * format) run once. The answer is the effects' `{image_url, format, width, height, size}`
 * plus `url` (the same link), what most clients read; with shape=link the hosted picture's
 * link alone as `result` (the genre's own bot reads that string); the bytes with stream=true.
 */
export default handler<Params['tools/remini']>(async ({ params, call, setup }) => {
  // sharp, onnxruntime and the worker pool load with the first call, not at boot
  const [{ enhance }, { renderCache }] = await Promise.all([import('../../../features/effects/upscale.js'), import('../../../features/effects/shared.js')]);
  const input = await fetchPhoto(setup, call, 'url');
  const format = params.format ?? 'jpg';
  const maxPixels = setup.config.effects?.enhanceMaxPixels;
  const key = crypto
    .createHash('sha256')
    .update(`enhance\0${format}\0${maxPixels ?? ''}\0`)
    .update(input)
    .digest('hex');
  // a photo enhance() cannot decode is already the 400 naming `url` (it runs on this thread)
  const result = await renderCache(setup).get(key, () => enhance(input, format, maxPixels, setup));
  return renderedFile(result, 'enhanced').withAnswer(params.shape === 'link' ? hosted.url : { ...imageAnswer(result), url: hosted.url });
});

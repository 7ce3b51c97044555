import sharp from 'sharp';
import jsQRModule from 'jsqr';
import { ApiError, invalidParameter } from '../../../core/errors.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/readqr. Fetching the image is I/O (SSRF-guarded, 10 MB at most) and
 * happens here; decoding and the search for the code are CPU work, proportional to
 * the pixels, so they run in the code pool (`#decode`). A large photo is scaled down
 * to MAX_SIDE first: jsQR needs a few pixels per module, not 36 megapixels.
 */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
const MAX_INPUT_PIXELS = 50_000_000;
const MAX_SIDE = 2048;
/** Decoding a 50 MP PNG in full takes seconds on a busy host; the pixel limit bounds it. */
const DECODE_MS = 10_000;

export default handler<Params['tools/readqr']>(async ({ params, call, setup }) => {
  const { body } = await setup.http.fetchUserUrl(params.url, { timeoutMs: 15_000, signal: call.signal, maxBytes: MAX_IMAGE_BYTES, accept: 'image/*' });
  return runPoolTask('tools/readqr#decode', { image: body }, { signal: call.signal, services: setup, taskMs: DECODE_MS });
});

// jsqr is CommonJS with an ES-style default export: under NodeNext the function is `.default`
const jsQR = jsQRModule.default;

export const decode = poolTask<{ image: Uint8Array }>()(async ({ params }) => {
  let raw, width;
  try {
    const image = sharp(params.image, { limitInputPixels: MAX_INPUT_PIXELS });
    width = (await image.metadata()).width;
    // flatten onto white: transparent PNG codes would otherwise read as black on black
    raw = await image
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (/pixel limit/i.test((err as Error).message)) throw invalidParameter('url', `the image has more than ${MAX_INPUT_PIXELS / 1e6} megapixels`);
    throw invalidParameter('url', 'does not point to an image');
  }
  const code = jsQR(new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.length), raw.info.width, raw.info.height);
  if (!code) throw new ApiError('not_found', 'No QR code was found in the image');
  // the location in the image as sent, not in the scaled copy
  const scale = width ? width / raw.info.width : 1;
  const { x, y } = code.location.topLeftCorner;
  // `qrcode_data` and `data` repeat the text under the names clients of the genre read
  return {
    text: code.data,
    qrcode_data: code.data,
    data: code.data,
    version: code.version,
    location: scale === 1 ? { x, y } : { x: Math.round(x * scale), y: Math.round(y * scale) },
  };
});

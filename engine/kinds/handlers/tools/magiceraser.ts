import sharp from 'sharp';
import type { AdapterSetup, Call } from '../../../contract/call.js';
import { MAX_SIDE } from '../../../features/effects/image-ops.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../../../features/effects/photo-input.js';
import { servicePng } from '../../../features/effects/service-png.js';
import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/magiceraser: the objects painted white in `mask` erased from the photo and
 * the hole filled in by a self-hosted IOPaint server (IOPAINT_URL, its LaMa model by
 * default). Both pictures are fetched here, through the SSRF guard, and sent as base64:
 * IOPaint never fetches a client's URL. IOPaint refuses a mask whose size differs from
 * the photo's and ignores EXIF orientation differences, so the photo goes upright as a
 * PNG and the mask is stretched to it: a bot can send a mask drawn on a thumbnail.
 */
const ANSWER_MAX_BYTES = 60 * 1024 * 1024;

const decode = (bytes: Buffer) => sharp(bytes, { limitInputPixels: PHOTO_MAX_PIXELS, animated: false });

async function uprightPhoto(bytes: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  try {
    const { data, info } = await decode(bytes)
      .rotate()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 3 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw invalidParameter('url', 'is not a readable image');
  }
}

/** White (after flattening any transparency onto black) is erased; thresholded at 50% as IOPaint does. */
async function maskFor(bytes: Buffer, width: number, height: number): Promise<Buffer> {
  let mask: Buffer;
  try {
    mask = await decode(bytes)
      .rotate()
      .flatten({ background: '#000000' })
      .resize({ width, height, fit: 'fill' })
      .threshold(128)
      .toColourspace('b-w')
      .png()
      .toBuffer();
  } catch {
    throw invalidParameter('mask', 'is not a readable image');
  }
  // an all-black mask would send the photo back unchanged after a slow model run
  const { channels } = await sharp(mask).stats();
  if (channels[0].max === 0) throw invalidParameter('mask', 'marks nothing to erase (paint the objects white on black)');
  return mask;
}

async function inpaint(setup: AdapterSetup, call: Call, image: Buffer, mask: Buffer): Promise<Buffer> {
  const answer = await setup.upstreams.buffer('iopaint', {
    method: 'POST',
    path: '/api/v1/inpaint',
    json: { image: image.toString('base64'), mask: mask.toString('base64') },
    signal: call.signal,
    maxBytes: ANSWER_MAX_BYTES,
  });
  return answer.body;
}

export default handler<Params['tools/magiceraser']>(async ({ call, setup }) => {
  const [photoBytes, maskBytes] = await Promise.all([fetchPhoto(setup, call, 'url'), fetchPhoto(setup, call, 'mask')]);
  const photo = await uprightPhoto(photoBytes);
  const mask = await maskFor(maskBytes, photo.width, photo.height);
  const erased = await inpaint(setup, call, photo.png, mask);
  return servicePng('iopaint', erased);
});

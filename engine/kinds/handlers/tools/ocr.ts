import sharp from 'sharp';
import { fetchPhoto, PHOTO_MAX_PIXELS, unreadablePhoto } from '../../../features/effects/photo-input.js';
import { invalidParameter, notFound } from '../../../core/errors.js';
import { installedLanguages, recognize, tesseractCode } from '../../../features/ocr/tesseract.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Longest side handed to Tesseract: larger scans are scaled down (text stays legible, a page stays well under a few seconds). */
const MAX_SIDE = 3000;

/**
 * /api/tools/ocr: the text of an image at a URL (SSRF-guarded, 15 MB and 40 megapixels
 * at most), read by Tesseract in its worker thread. The image is turned upright from its
 * EXIF orientation, flattened onto white (transparent text would read as black on black)
 * and made greyscale by sharp, off the main thread too.
 */
export default handler<Params['tools/ocr']>(async ({ params, call, setup }) => {
  const code = tesseractCode(params.lang);
  const installed = installedLanguages();
  if (!installed.includes(code)) throw invalidParameter('lang', `no OCR data for "${params.lang}" here; installed: ${installed.join(', ') || 'none'}`);
  const input = await fetchPhoto(setup, call, 'url');
  let image: Buffer;
  try {
    image = await sharp(input, { limitInputPixels: PHOTO_MAX_PIXELS })
      .rotate()
      .flatten({ background: '#ffffff' })
      .grayscale()
      .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch {
    throw unreadablePhoto('url');
  }
  const result = await recognize(image, code, call.signal, setup.scope, setup.config.memory?.ocrIdleMs);
  if (!result.text) throw notFound('No text was found in the image');
  return { ...result, language: code };
});

import crypto from 'node:crypto';
import { deliver } from '../effects/deliver.js';
import { PHOTO_MAX_PIXELS } from '../effects/photo-input.js';
import { invalidParameter } from '../../core/errors.js';
import type { AdapterSetup, Call, Output } from '../../contract/call.js';
import { UNKNOWN_COLOR, type StickerJob } from './job.js';

/**
 * Main-thread side of stickers and cards: the render runs in the effects' render
 * pool (Skia and sharp off the event loop), identical requests render once (the
 * shared render cache), and the answer is the effects' hosted `{image_url, …}` or,
 * with stream=true, the bytes.
 */
export async function stickerOutput(setup: AdapterSetup, call: Call, job: StickerJob, name: string, imageParam = 'image'): Promise<Output> {
  // Skia, sharp and the worker pool load with the first sticker, not at boot
  const [{ renderCache, renderPool }, { PHOTO_UNREADABLE }] = await Promise.all([import('../effects/shared.js'), import('../effects/render.js')]);
  const hash = crypto.createHash('sha256').update(`sticker\0${job.sticker}\0${JSON.stringify(job.params, Object.keys(job.params).sort())}\0`);
  for (const [key, bytes] of Object.entries(job.images ?? {}).sort()) hash.update(`${key}\0`).update(bytes);
  const result = await renderCache(setup)
    .get(hash.digest('hex'), () => renderPool(setup).render(job))
    .catch((err: Error) => {
      if (err.message?.startsWith(UNKNOWN_COLOR)) {
        throw invalidParameter(
          'color',
          `is not a colour this server knows: use a CSS colour name (orange, teal…) or #rgb / #rrggbb, got "${err.message.slice(UNKNOWN_COLOR.length)}"`,
        );
      }
      throw err.message?.startsWith(PHOTO_UNREADABLE)
        ? invalidParameter(imageParam, `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`)
        : err;
    });
  return deliver(setup, call, result, name);
}

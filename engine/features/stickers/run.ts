import crypto from 'node:crypto';
import { deliver } from '../effects/deliver.js';
import { photoParamError } from '../effects/photo-input.js';
import type { AdapterSetup, Call, Output } from '../../contract/call.js';
import type { StickerJob } from './job.js';

/**
 * Main-thread side of stickers and cards: the render runs in the effects' render
 * pool (Skia and sharp off the event loop), identical requests render once (the
 * shared render cache), and the answer is the effects' hosted `{image_url, …}` or,
 * with stream=true, the bytes.
 */
export async function stickerOutput(setup: AdapterSetup, call: Call, job: StickerJob, name: string, imageParam = 'image'): Promise<Output> {
  // Skia, sharp and the worker pool load with the first sticker, not at boot
  const { renderCache, renderPool } = await import('../effects/shared.js');
  const hash = crypto.createHash('sha256').update(`sticker\0${job.sticker}\0${JSON.stringify(job.params, Object.keys(job.params).sort())}\0`);
  for (const [key, bytes] of Object.entries(job.images ?? {}).sort()) hash.update(`${key}\0`).update(bytes);
  const result = await renderCache(setup)
    .get(hash.digest('hex'), () => renderPool(setup).render(job))
    .catch((err: unknown) => {
      throw photoParamError(err, imageParam);
    });
  return deliver(setup, call, result, name);
}

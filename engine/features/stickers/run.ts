import crypto from 'node:crypto';
import { renderedFile } from '../effects/deliver.js';
import { photoParamError } from '../effects/photo-input.js';
import type { AdapterSetup } from '../../contract/call.js';
import type { FileOutput } from '../../contract/file-output.js';
import type { StickerJob } from './job.js';

/**
 * Main-thread side of stickers and cards: the render runs in the effects' render
 * pool (Skia and sharp off the event loop), identical requests render once (the
 * shared render cache), and the picture is the call's file (effects/deliver.ts renderedFile:
 * the engine sends its bytes or hosts it as `{image_url, …}`).
 */
export async function stickerFile(setup: AdapterSetup, job: StickerJob, name: string, imageParam = 'image'): Promise<FileOutput> {
  // Skia, sharp and the worker pool load with the first sticker, not at boot
  const { renderCache, renderPool } = await import('../effects/shared.js');
  const hash = crypto.createHash('sha256').update(`sticker\0${job.sticker}\0${JSON.stringify(job.params, Object.keys(job.params).sort())}\0`);
  for (const [key, bytes] of Object.entries(job.images ?? {}).sort()) hash.update(`${key}\0`).update(bytes);
  const result = await renderCache(setup)
    .get(hash.digest('hex'), () => renderPool(setup).render(job))
    .catch((err: unknown) => {
      throw photoParamError(err, imageParam);
    });
  return renderedFile(result, name);
}

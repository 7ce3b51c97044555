import type { RenderResult } from '../effects/render.js';
import type { ImageFormat } from '../effects/encode.js';
import type { StickerJob } from './job.js';
import { renderAttp, renderTtp } from './text-sticker.js';

/** Worker side: one sticker or card render (called from the render pool's worker). */
export async function renderSticker(job: StickerJob): Promise<RenderResult> {
  const p = job.params;
  const text = String(p.text ?? '').replace(/\s+/g, ' ').trim();
  const size = typeof p.size === 'number' ? p.size : 512;
  const font = typeof p.font === 'string' ? p.font : 'luckiest-guy';
  switch (job.sticker) {
    case 'ttp':
      return renderTtp({ text, size, font, color: String(p.color ?? '#ffffff'), format: (p.format as ImageFormat | undefined) ?? 'png' });
    case 'attp':
      return renderAttp({ text, size, font, format: p.format === 'gif' ? 'gif' : 'webp' });
    default:
      throw new Error(`unknown sticker ${job.sticker}`);
  }
}

import { decodePhoto, type RenderResult } from '../effects/render.js';
import type { ImageFormat } from '../effects/encode.js';
import type { StickerJob } from './job.js';
import { renderAttp, renderTtp } from './text-sticker.js';
import { renderQuote } from './quote.js';
import { renderCard, type CardParams } from './cards.js';

/** Worker side: one sticker or card render (called from the render pool's worker). */
export async function renderSticker(job: StickerJob): Promise<RenderResult> {
  const p = job.params;
  const text = String(p.text ?? '')
    .replace(/[^\S\n]+/g, ' ')
    .trim();
  const size = typeof p.size === 'number' ? p.size : 512;
  const font = typeof p.font === 'string' ? p.font : 'luckiest-guy';
  const format = (p.format as ImageFormat | undefined) ?? 'png';
  // a client picture (avatar, cover) is decoded here, off the main thread, shrunk to what the drawing shows
  const image = job.images?.image ? await decodePhoto(job.images.image, 512) : undefined;
  switch (job.sticker) {
    case 'ttp':
      return renderTtp({ text: text.replace(/\n/g, ' '), size, font, color: String(p.color ?? '#ffffff'), format });
    case 'attp':
      return renderAttp({ text: text.replace(/\n/g, ' '), size, font, format: p.format === 'gif' ? 'gif' : 'webp' });
    case 'quote':
      return renderQuote({ text, name: String(p.name ?? ''), color: String(p.color ?? '#1f2c34'), format }, image);
    case 'card':
      return renderCard({ ...(p as unknown as CardParams), text: text.replace(/\n/g, ' '), format }, image);
  }
}

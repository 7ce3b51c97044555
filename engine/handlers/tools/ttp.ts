import type { ImageFormat } from '../../effects/encode.js';
import { stickerOutput } from '../../stickers/run.js';
import { handler, Reply } from '../types.js';

/** /api/tools/ttp: a text sticker (512×512, transparent), drawn in the render pool. */
export default handler<{ text: string; color: string; font: string; format: ImageFormat }>(async ({ params, call, setup }) => {
  const { text, color, font, format } = params;
  return new Reply(await stickerOutput(setup, call, { sticker: 'ttp', params: { text, color, font, format } }, 'ttp'));
});

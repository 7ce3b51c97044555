import { stickerFile } from '../../../features/stickers/run.js';
import { handler } from '../../../contract/handler.js';
import { hosted } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/ttp: a text sticker (512×512, transparent), drawn in the render pool. The
 * hosted answer is the sticker's link as `result` (a string), which the manifest's
 * `resultAlso: image_url` repeats where the genre's own bots read it; stream=true the bytes.
 */
export default handler<Params['tools/ttp']>(async ({ params, setup }) => {
  const { text, color, font, format } = params;
  const sticker = await stickerFile(setup, { sticker: 'ttp', params: { text, color, font, format } }, 'ttp');
  return sticker.withAnswer(hosted.url);
});

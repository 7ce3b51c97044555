import { stickerOutput } from '../../../features/stickers/run.js';
import { handler, Reply } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/ttp: a text sticker (512×512, transparent), drawn in the render pool. The
 * hosted answer is the sticker's link as `result` (a string), which the manifest's
 * `resultAlso: image_url` repeats where the genre's own bots read it; stream=true the bytes.
 */
export default handler<Params['tools/ttp']>(async ({ params, call, setup }) => {
  const { text, color, font, format } = params;
  const output = await stickerOutput(setup, call, { sticker: 'ttp', params: { text, color, font, format } }, 'ttp');
  if (output.type === 'json') output.result = (output.result as { image_url: string }).image_url;
  return new Reply(output);
});

import { stickerFile } from '../../../features/stickers/run.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/attp (and /api/maker/attp): an animated text sticker, the text cycling through colours. */
export default handler<Params['tools/attp']>(async ({ params, setup }) => {
  const { text, font, format } = params;
  return stickerFile(setup, { sticker: 'attp', params: { text, font, format } }, 'attp');
});

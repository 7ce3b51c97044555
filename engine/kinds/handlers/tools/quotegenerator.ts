import { fetchPhoto } from '../../../features/effects/photo-input.js';
import { stickerFile } from '../../../features/stickers/run.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/quotegenerator: a chat-bubble quote sticker; the avatar is fetched through the SSRF guard. */
export default handler<Params['tools/quotegenerator']>(async ({ params, call, setup }) => {
  const { text, name, color, format } = params;
  const images = params.avatar ? { image: await fetchPhoto(setup, call, 'avatar') } : undefined;
  return stickerFile(setup, { sticker: 'quote', params: { text, name, color, format }, images }, 'quote', 'avatar');
});

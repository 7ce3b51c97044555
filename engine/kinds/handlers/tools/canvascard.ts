import { fetchPhoto } from '../../../features/effects/photo-input.js';
import { stickerFile } from '../../../features/stickers/run.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/canvascard: a Spotify, welcome/goodbye or rank card; the picture is fetched through the SSRF guard. */
export default handler<Params['tools/canvascard']>(async ({ params, call, setup }) => {
  const { image, stream: _stream, ...card } = params;
  const images = image ? { image: await fetchPhoto(setup, call, 'image') } : undefined;
  return stickerFile(setup, { sticker: 'card', params: { ...card }, images }, card.type);
});

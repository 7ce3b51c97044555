import { fetchPhoto } from '../../../features/effects/photo-input.js';
import type { CardParams } from '../../../features/stickers/cards.js';
import { stickerOutput } from '../../../features/stickers/run.js';
import { handler, Reply } from '../../../contract/handler.js';

/** /api/tools/canvascard: a Spotify, welcome/goodbye or rank card; the picture is fetched through the SSRF guard. */
export default handler<CardParams & { image?: string }>(async ({ params, call, setup }) => {
  const { image, stream: _stream, ...card } = params as CardParams & { image?: string; stream?: boolean };
  const images = image ? { image: await fetchPhoto(setup, call, 'image') } : undefined;
  return new Reply(await stickerOutput(setup, call, { sticker: 'card', params: { ...card }, images }, card.type));
});

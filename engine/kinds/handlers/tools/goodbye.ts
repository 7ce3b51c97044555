import { fetchPhoto } from '../../../features/effects/photo-input.js';
import type { CardParams } from '../../../features/stickers/cards.js';
import { stickerFile } from '../../../features/stickers/run.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/goodbye (and welcome): the canvascard welcome/goodbye banner under the names and
 * styles clients of the genre send (`type1`/`type2`: welcome, `type3`: goodbye; or the card's
 * own `welcome`/`goodbye`). The banner itself is the answer; `hosted=true` answers the effects'
 * hosted `{image_url, …}` instead.
 */
const STYLES: Record<string, { type: 'welcome' | 'goodbye'; color?: string }> = {
  type1: { type: 'welcome' },
  type2: { type: 'welcome', color: '#e8a33d' },
  type3: { type: 'goodbye' },
  welcome: { type: 'welcome' },
  goodbye: { type: 'goodbye' },
};

export default handler<Params['tools/goodbye']>(async ({ params, call, setup }) => {
  const style = STYLES[params.type] ?? STYLES.type3;
  const text = params.text ?? (style.type === 'goodbye' ? 'Goodbye, we will miss you!' : 'Welcome to the group!');
  const card: CardParams = {
    type: style.type,
    title: params.name,
    text,
    format: params.format,
    ...((params.color ?? style.color) && { color: params.color ?? style.color }),
  };
  const images = params.image ? { image: await fetchPhoto(setup, call, 'image') } : undefined;
  // the engine answers the bytes, or with hosted=true the hosted {image_url, …}
  return stickerFile(setup, { sticker: 'card', params: { ...card }, images }, style.type);
});

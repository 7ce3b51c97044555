import canvascard from './canvascard.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/canvas: the canvascard cards (spotify, welcome, goodbye, rank) answering the image
 * bytes, what the clients of this path read; `hosted=true` answers the hosted `{image_url, …}`.
 * `watermark` is accepted and not drawn.
 */
export default handler<Params['tools/canvas']>(async (input) => {
  const { hosted: _hosted, watermark: _watermark, ...card } = input.params;
  // the engine reads hosted (in the call's params) for bytes or the hosted {image_url, …}
  return canvascard({ ...input, params: card });
});

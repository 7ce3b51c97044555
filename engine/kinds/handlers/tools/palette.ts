import { parse } from '../../../features/tools/colour.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/palette']>(({ params }) => {
  const base = parse(params.color, 'color');
  const colours = params.type === 'shades' ? base.shades(params.count) : params.type === 'tints' ? base.tints(params.count) : base.harmonies(params.type);
  return { base: base.toHex(), type: params.type, colors: colours.map((c) => c.toHex()) };
});

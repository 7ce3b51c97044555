import { type Colord } from 'colord';
import { parse } from '../../../features/tools/colour.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const describe = (c: Colord) => ({
  hex: c.toHex(),
  rgb: c.toRgbString(),
  hsl: c.toHslString(),
  cmyk: c.toCmykString(),
  name: c.toName({ closest: true }),
  brightness: Number(c.brightness().toFixed(3)),
  isDark: c.isDark(),
});

export default handler<Params['tools/color']>(({ params }) => describe(parse(params.color, 'color')));

import { parse } from '../../../features/tools/colour.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/contrast']>(({ params }) => {
  const fg = parse(params.foreground, 'foreground');
  const bg = parse(params.background, 'background');
  const ratio = fg.contrast(bg);
  return {
    ratio,
    aa: fg.isReadable(bg, { level: 'AA' }),
    aaLarge: fg.isReadable(bg, { level: 'AA', size: 'large' }),
    aaa: fg.isReadable(bg, { level: 'AAA' }),
    aaaLarge: fg.isReadable(bg, { level: 'AAA', size: 'large' }),
  };
});

import QRCode from 'qrcode';
import { runPure } from '../cpu-pool.js';
import { FileOutput, handler, pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/createqr: a QR code (PNG or SVG, via qrcode). The image itself is the
 * answer (what the genre's clients read); `hosted=true` stores it and answers its link.
 * Drawing is CPU work bounded by the params' limits and runs in the code pool (`#render`).
 */
export default handler<Params['tools/createqr']>(async ({ params, call, setup }) => {
  const { hosted, ...draw } = params;
  const image = (await runPure({ handler: 'tools/createqr#render', params: draw, options: {} }, { signal: call.signal, config: setup.config })) as FileOutput;
  if (!hosted) return image;
  return (await setup.files.put(image.data, { ext: image.ext })).url;
});

export const render = pureHandler<Omit<Params['tools/createqr'], 'hosted'>>(async ({ params }) => {
  const options = {
    errorCorrectionLevel: params.level,
    margin: params.margin,
    color: { dark: params.color, light: params.background },
  };
  if (params.format === 'svg') {
    const svg = await QRCode.toString(params.text, { ...options, type: 'svg' });
    return new FileOutput(Buffer.from(svg), 'svg', 'image/svg+xml');
  }
  return new FileOutput(await QRCode.toBuffer(params.text, { ...options, type: 'png', width: params.size }), 'png', 'image/png');
});

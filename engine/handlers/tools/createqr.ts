import QRCode from 'qrcode';
import { FileOutput, pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

/** QR codes: make (PNG or SVG, via qrcode). */

export default pureHandler<Params['tools/createqr']>(async ({ params }) => {
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

import QRCode from 'qrcode';
import sharp, { type OutputInfo } from 'sharp';
import jsQRModule from 'jsqr';
import { ApiError, invalidParameter } from '../../errors.js';
import { FileOutput, type Operation } from './types.js';

/** QR codes: make (PNG or SVG, via qrcode) and read (any image sharp decodes, via jsQR). */

export const qrMake: Operation = async ({ params }) => {
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
};

// jsqr is CommonJS with an ES-style default export: under NodeNext the function is `.default`
const jsQR = jsQRModule.default;

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const qrRead: Operation = async ({ params, call, setup }) => {
  const { body } = await setup.http.fetchUserUrl(params.url, { timeoutMs: 15_000, signal: call.signal, maxBytes: MAX_IMAGE_BYTES, accept: 'image/*' });
  let raw: { data: Buffer; info: OutputInfo };
  try {
    // flatten onto white: transparent PNG codes would otherwise read as black on black
    raw = await sharp(body, { limitInputPixels: 40_000_000 }).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  } catch {
    throw invalidParameter('url', 'does not point to an image');
  }
  const code = jsQR(new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.length), raw.info.width, raw.info.height);
  if (!code) throw new ApiError(404, 'not_found', 'No QR code was found in the image');
  return { text: code.data, version: code.version, location: code.location.topLeftCorner };
};

import QRCode from 'qrcode';
import { invalidParameter } from '../../../core/errors.js';
import { runPoolTask } from '../pool-tasks.js';
import { handler, poolTask } from '../../../contract/handler.js';
import { FileOutput, hosted } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/createqr: a QR code (PNG or SVG, via qrcode). The image itself is the
 * answer (what the genre's clients read); `hosted=true` stores it and answers its link.
 * Drawing is CPU work bounded by the params' limits and runs in the code pool (`#render`).
 */
export default handler<Params['tools/createqr']>(async ({ params, call, setup }) => {
  const { hosted: _hosted, ...draw } = params;
  const image = await runPoolTask('tools/createqr#render', draw, { signal: call.signal, services: setup });
  // the bytes, or with hosted=true the stored image's link alone
  return image.withAnswer(hosted.url);
});

/**
 * What a QR code (version 40) holds at each error-correction level, in byte mode: UTF-8
 * bytes, so an emoji takes four. Digits-only and upper-case texts pack tighter, so the
 * library, not this table, decides; the table only names the limit in the refusal.
 */
const BYTE_CAPACITY = { L: 2953, M: 2331, Q: 1663, H: 1273 } as const;

export const render = poolTask<Omit<Params['tools/createqr'], 'hosted'>>()(async ({ params }) => {
  try {
    return await draw(params);
  } catch (err) {
    if (!/too big to be stored/i.test((err as Error).message)) throw err;
    const level = params.level ?? 'M';
    const bytes = Buffer.byteLength(params.text);
    throw invalidParameter(
      'text',
      `does not fit in a QR code at error-correction level ${level}: at most ${BYTE_CAPACITY[level]} bytes of UTF-8 there (this text is ${bytes}); use a lower level (L holds ${BYTE_CAPACITY.L}) or a shorter text`,
    );
  }
});

async function draw(params: Omit<Params['tools/createqr'], 'hosted'>): Promise<FileOutput> {
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
}

import type { ImageOp } from '../../../features/effects/image-ops.js';
import { photoOp } from '../../../features/effects/photo-op.js';
import { handler } from '../../../contract/handler.js';

/** The option-less photo filters of endpoints/effects/image-filters.yaml: one export per endpoint (/api/image/<name>). */
const filter = (op: ImageOp) => handler(async ({ call, setup }) => photoOp(setup, call, op));

export const grayscale = filter('grayscale');
export const invert = filter('invert');
export const sepia = filter('sepia');
export const circle = filter('circle');
export const flip = filter('flip');
export const mirror = filter('mirror');
export const deepfry = filter('deepfry');

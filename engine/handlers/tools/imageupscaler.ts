import { photoUpscale } from '../../effects/photo-op.js';
import { handler, Reply } from '../types.js';

/** /api/tools/imageupscaler: Lanczos or ESRGAN-slim (the `model` param) in the neural worker. */
export default handler(async ({ call, setup }) => new Reply(await photoUpscale(setup, call)));

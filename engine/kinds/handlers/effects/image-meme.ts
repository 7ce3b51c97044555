import { photoOp } from '../../../features/effects/photo-op.js';
import { handler } from '../../../contract/handler.js';

/** /api/image/meme (engine/features/effects/image-ops.ts, in the render pool). */
export default handler(async ({ call, setup }) => photoOp(setup, call, 'meme'));

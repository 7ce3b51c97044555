import { photoOp } from '../../../features/effects/photo-op.js';
import { handler, Reply } from '../../../contract/handler.js';

/** /api/image/adjust (engine/features/effects/image-ops.ts, in the render pool). */
export default handler(async ({ call, setup }) => new Reply(await photoOp(setup, call, 'adjust')));

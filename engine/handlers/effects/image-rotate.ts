import { photoOp } from '../../effects/photo-op.js';
import { handler, Reply } from '../types.js';

/** /api/image/rotate (engine/effects/image-ops.ts, in the render pool). */
export default handler(async ({ call, setup }) => new Reply(await photoOp(setup, call, 'rotate')));

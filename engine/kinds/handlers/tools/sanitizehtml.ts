import { sanitize } from '../../../features/tools/html/sanitize.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/sanitizehtml: keeps a safe allowlist of tags and attributes; nothing that could run script survives. */
export default pureHandler<Params['tools/sanitizehtml']>(({ params }) => nestingLimited('html', () => sanitize(params.html)));

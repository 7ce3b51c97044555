import { sanitize } from '../../tools/html/sanitize.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

/** /api/tools/sanitizehtml: keeps a safe allowlist of tags and attributes; nothing that could run script survives. */
export default pureHandler<Params['tools/sanitizehtml']>(({ params }) => nestingLimited('html', () => sanitize(params.html)));

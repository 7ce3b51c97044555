import { sanitize } from '../../tools/html/sanitize.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';

/** /api/tools/sanitizehtml: keeps a safe allowlist of tags and attributes; nothing that could run script survives. */
export default pureHandler<{ html: string }>(({ params }) => nestingLimited('html', () => sanitize(params.html)));

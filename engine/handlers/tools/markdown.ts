import { marked } from 'marked';
import { sanitize } from '../../tools/html/sanitize.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

/** /api/tools/markdown: GitHub-flavoured Markdown (marked), sanitised, so the HTML is safe to embed. */
export default pureHandler<Params['tools/markdown']>(({ params }) =>
  nestingLimited('markdown', () => sanitize(marked.parse(params.markdown, { gfm: true, async: false }))),
);

import { marked } from 'marked';
import { sanitize } from '../../../features/tools/html/sanitize.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/markdown: GitHub-flavoured Markdown (marked), sanitised, so the HTML is safe to embed. */
export default pureHandler<Params['tools/markdown']>(({ params }) =>
  nestingLimited('markdown', () => sanitize(marked.parse(params.markdown, { gfm: true, async: false }))),
);

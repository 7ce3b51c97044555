import { convert } from 'html-to-text';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/html2text: readable plain text (headings upper-cased, lists bulleted, links with their URL). */
export default pureHandler<Params['tools/html2text']>(({ params }) =>
  nestingLimited('html', () => convert(params.html, { wordwrap: params.wordwrap || false })),
);

import { convert } from 'html-to-text';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';

/** /api/tools/html2text: readable plain text (headings upper-cased, lists bulleted, links with their URL). */
export default pureHandler<{ html: string; wordwrap: number }>(({ params }) =>
  nestingLimited('html', () => convert(params.html, { wordwrap: params.wordwrap || false })),
);

import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';
import { segments } from '../../../features/tools/text/segments.js';

/** /api/tools/reverse: reversed by grapheme, so emoji and combining marks stay whole. */
export default pureHandler<Params['tools/reverse']>(({ params }) => {
  const parts: string[] = [];
  for (const { segment } of segments(params.text, 'grapheme')) parts.push(segment);
  return parts.reverse().join('');
});

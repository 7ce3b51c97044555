import { handler } from '../types.js';

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** /api/tools/reverse: reversed by grapheme, so emoji and combining marks stay whole. */
export default handler<{ text: string }>(({ params }) => {
  const parts: string[] = [];
  for (const { segment } of graphemes.segment(params.text)) parts.push(segment);
  return parts.reverse().join('');
});

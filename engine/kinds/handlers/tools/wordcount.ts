import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';
import { countSegments } from '../../../features/tools/text/segments.js';

/**
 * /api/tools/wordcount: counts by Unicode segmentation, so emoji and CJK text count
 * correctly. Segmentation goes through tools/text/segments.ts, which keeps it linear
 * (walking Intl.Segmenter over the whole text was quadratic in time and memory).
 */
export default pureHandler<Params['tools/wordcount']>(({ params: { text } }) => {
  const words = countSegments(text, 'word', (s) => !!s.isWordLike);
  return {
    words,
    characters: countSegments(text, 'grapheme'),
    charactersNoSpaces: countSegments(text.replace(/\s+/g, ''), 'grapheme'),
    bytes: Buffer.byteLength(text),
    sentences: countSegments(text, 'sentence', (s) => s.segment.trim() !== ''),
    paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim()).length,
    lines: text === '' ? 0 : text.split(/\r?\n/).length,
    readingTimeSeconds: Math.ceil((words / 238) * 60),
  };
});

/**
 * Text cut where it may be cut. A code point is not a letter: an emoji with a skin tone,
 * a flag, a family joined by ZWJ, a Devanagari conjunct or a Thai vowel mark is one
 * grapheme cluster of several code points, and cutting inside it draws pieces.
 */
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

export const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/** Scripts written right to left; Arabic, Syriac, N'Ko and Adlam also join their letters. */
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}]/u;
const SPACE = /^\s+$/u;

/**
 * Units of a glyph-by-glyph layout (letter spacing, curved text): grapheme clusters,
 * except that a run of right-to-left text, with the spaces between its words, stays one
 * unit for Skia to shape whole (joined letters, words in their order). Placed one by one,
 * the letters of مرحبا would stand unjoined and its words reversed.
 */
export function glyphUnits(text: string): string[] {
  const units: string[] = [];
  let rtl = '';
  let spaces: string[] = [];
  for (const cluster of graphemes(text)) {
    if (RTL.test(cluster)) {
      rtl += spaces.join('') + cluster;
      spaces = [];
    } else if (rtl && SPACE.test(cluster)) spaces.push(cluster);
    else {
      if (rtl) units.push(rtl);
      rtl = '';
      units.push(...spaces, cluster);
      spaces = [];
    }
  }
  if (rtl) units.push(rtl);
  units.push(...spaces);
  return units;
}

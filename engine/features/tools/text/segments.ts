/**
 * Unicode segmentation (Intl.Segmenter) in linear time. V8 gives every segment it
 * yields a fresh copy of the whole input (`input`), so walking a long text costs
 * time and memory with the square of its length (a 20 KB word count allocated
 * 840 MB). Here the text is segmented one window at a time: a window starts on a
 * boundary already found, only the segments that end at least `margin` characters
 * before the window's end are taken (the rules look ahead at most a few characters,
 * sentences a little more), and the next window starts where the last one taken
 * ended. Results equal one pass over the whole text, except that a single segment
 * longer than the window is cut into pieces (a sentence of over 8,000 characters).
 */

export type Granularity = 'grapheme' | 'word' | 'sentence';

export interface Piece {
  segment: string;
  /** Offset in the whole text (UTF-16 code units). */
  index: number;
  isWordLike?: boolean;
}

const WINDOWS: Record<Granularity, { size: number; margin: number }> = {
  grapheme: { size: 128, margin: 16 },
  word: { size: 1024, margin: 64 },
  sentence: { size: 8192, margin: 512 },
};

const segmenters = new Map<string, Intl.Segmenter>();
function segmenterFor(granularity: Granularity, locale?: string): Intl.Segmenter {
  const key = `${granularity}:${locale ?? ''}`;
  let segmenter = segmenters.get(key);
  if (!segmenter) segmenters.set(key, (segmenter = new Intl.Segmenter(locale, { granularity })));
  return segmenter;
}

export function* segments(text: string, granularity: Granularity, locale?: string): Generator<Piece> {
  const segmenter = segmenterFor(granularity, locale);
  const { size, margin } = WINDOWS[granularity];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    const last = end === text.length;
    // never split a surrogate pair between windows
    if (!last && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    const window = text.slice(start, end);
    const takeUpTo = last ? Infinity : window.length - margin;
    let next = end;
    let taken = false;
    for (const s of segmenter.segment(window)) {
      const segEnd = s.index + s.segment.length;
      if (!last && segEnd > takeUpTo && taken) {
        next = start + s.index;
        break;
      }
      yield { segment: s.segment, index: start + s.index, isWordLike: s.isWordLike };
      taken = true;
      // a segment longer than the window is cut where the window ends
      if (!last && segEnd > takeUpTo) break;
    }
    start = next;
  }
}

/** How many segments of the text satisfy `keep` (all when omitted). */
export function countSegments(text: string, granularity: Granularity, keep?: (piece: Piece) => boolean): number {
  let n = 0;
  for (const piece of segments(text, granularity)) if (!keep || keep(piece)) n++;
  return n;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

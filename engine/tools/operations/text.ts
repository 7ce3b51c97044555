import { LoremIpsum } from 'lorem-ipsum';
import { createTwoFilesPatch, diffWordsWithSpace, diffLines } from 'diff';
import * as changeCase from 'change-case';
import slugifyText from '@sindresorhus/slugify';
import type { Operation } from './types.js';

/** Text utilities: placeholder text, diffs, case conversion, slugs, statistics. */

const lorem = new LoremIpsum();
const LOREM = { words: (n: number) => lorem.generateWords(n), sentences: (n: number) => lorem.generateSentences(n), paragraphs: (n: number) => lorem.generateParagraphs(n) };

export const loremIpsum: Operation = ({ params }) => LOREM[params.units as keyof typeof LOREM](params.count);

export const textDiff: Operation = ({ params }) => {
  const parts = params.mode === 'lines' ? diffLines(params.a, params.b) : diffWordsWithSpace(params.a, params.b);
  const changes = parts.map((p) => ({ type: p.added ? 'added' : p.removed ? 'removed' : 'same', value: p.value }));
  return {
    identical: changes.every((c) => c.type === 'same'),
    added: changes.filter((c) => c.type === 'added').length,
    removed: changes.filter((c) => c.type === 'removed').length,
    changes,
    patch: createTwoFilesPatch('a', 'b', params.a, params.b, '', '', { context: 3 }),
  };
};

const CASES: Record<string, (s: string) => string> = {
  camel: changeCase.camelCase,
  pascal: changeCase.pascalCase,
  snake: changeCase.snakeCase,
  kebab: changeCase.kebabCase,
  constant: changeCase.constantCase,
  dot: changeCase.dotCase,
  path: changeCase.pathCase,
  sentence: changeCase.sentenceCase,
  capital: changeCase.capitalCase,
  train: changeCase.trainCase,
  upper: (s) => s.toUpperCase(),
  lower: (s) => s.toLowerCase(),
};
export const CASE_NAMES = Object.keys(CASES);

export const changeCaseOperation: Operation = ({ params }) => CASES[params.to](params.text);

export const slugify: Operation = ({ params }) => slugifyText(params.text, { separator: params.separator, lowercase: params.lowercase });

const segmenter = new Intl.Segmenter('en', { granularity: 'word' });
const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });
const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Counts by Unicode segmentation (Intl.Segmenter), so CJK text and emoji count correctly. */
export const wordCount: Operation = ({ params }) => {
  const text: string = params.text;
  const words = [...segmenter.segment(text)].filter((s) => s.isWordLike).length;
  return {
    words,
    characters: [...graphemes.segment(text)].length,
    charactersNoSpaces: [...graphemes.segment(text.replace(/\s+/g, ''))].length,
    bytes: Buffer.byteLength(text),
    sentences: [...sentences.segment(text)].filter((s) => s.segment.trim()).length,
    paragraphs: text.split(/\n\s*\n/).filter((p) => p.trim()).length,
    lines: text === '' ? 0 : text.split(/\r?\n/).length,
    readingTimeSeconds: Math.ceil((words / 238) * 60),
  };
};


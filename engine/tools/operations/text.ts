import { LoremIpsum } from 'lorem-ipsum';
import * as changeCase from 'change-case';
import slugifyText from '@sindresorhus/slugify';
import type { Operation } from './types.js';

/** Text utilities: placeholder text, case conversion, slugs. */

const lorem = new LoremIpsum();
const LOREM = { words: (n: number) => lorem.generateWords(n), sentences: (n: number) => lorem.generateSentences(n), paragraphs: (n: number) => lorem.generateParagraphs(n) };

export const loremIpsum: Operation = ({ params }) => LOREM[params.units as keyof typeof LOREM](params.count);

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

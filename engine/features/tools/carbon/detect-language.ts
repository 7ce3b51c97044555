import hljs from 'highlight.js';
import { bundledLanguages } from 'shiki';

/**
 * Guess the language of a snippet when the caller gave none: highlight.js's
 * relevance-based auto-detection over the languages people actually paste. Its
 * full list of ~190 grammars makes short snippets ambiguous (Python reads as CSS).
 */
const COMMON = [
  'javascript',
  'typescript',
  'python',
  'java',
  'c',
  'cpp',
  'csharp',
  'go',
  'rust',
  'ruby',
  'php',
  'bash',
  'json',
  'yaml',
  'xml',
  'css',
  'sql',
  'kotlin',
  'swift',
  'markdown',
];
const candidates = COMMON.filter((name) => hljs.getLanguage(name) && name in bundledLanguages);

export function detectLanguage(code: string): string {
  const guess = hljs.highlightAuto(code, candidates);
  return guess.language && guess.relevance >= 3 ? guess.language : 'text';
}

import { fromIso3, iso3, type Language } from './languages.js';
import type { Pair } from './apertium.js';

/**
 * Choosing an Apertium pair for a request: the source language as given, or detected
 * among the languages that have a pair into the target (franc, restricted to those
 * candidates, which is far more reliable on short texts than an open guess).
 */
const baseOf = (code: string) => code.split('_')[0];

/** "en→es, es→en, …": the installed pairs without regional variants, as clients name languages. */
export function describePairs(pairs: Pair[]): string {
  const names = new Set(pairs.map((p) => `${fromIso3(baseOf(p.from)).base}→${fromIso3(baseOf(p.to)).base}`));
  return [...names].sort().join(', ');
}

/** Sources (Apertium codes, no variant) that have a pair into `to`. */
export function sourcesInto(pairs: Pair[], to: Language): string[] {
  const target = iso3({ base: to.base });
  return [...new Set(pairs.filter((p) => baseOf(p.to) === target).map((p) => baseOf(p.from)))];
}

/** The source language of `text` among `candidates` (Apertium codes); English when franc cannot tell. */
export async function detectSource(text: string, candidates: string[]): Promise<string> {
  if (candidates.length === 1) return candidates[0];
  const { franc } = await import('franc');
  const guess = franc(text, { only: candidates, minLength: 1 });
  if (candidates.includes(guess)) return guess;
  return candidates.includes('eng') ? 'eng' : candidates[0];
}

/** The pair for source → target: the target's regional variant when asked and installed, else the plain pair. */
export function findPair(pairs: Pair[], from: string, to: Language): Pair | undefined {
  const source = baseOf(from);
  const wanted = [iso3(to), iso3({ base: to.base })];
  for (const target of wanted) {
    const pair = pairs.find((p) => baseOf(p.from) === source && !p.from.includes('_') && p.to.toLowerCase() === target.toLowerCase());
    if (pair) return pair;
  }
  return undefined;
}

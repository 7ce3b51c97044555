import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as english from '@zxcvbn-ts/language-en';
import type { Operation } from './types.js';

/** zxcvbn strength estimate with the common and English dictionaries, loaded once. */
const zxcvbn = new ZxcvbnFactory({
  translations: english.translations,
  graphs: common.adjacencyGraphs,
  dictionary: { ...common.dictionary, ...english.dictionary },
});

const LABELS = ['very weak', 'weak', 'fair', 'strong', 'very strong'];

export const passwordStrength: Operation = ({ params }) => {
  const r = zxcvbn.check(params.password);
  return {
    score: r.score,
    strength: LABELS[r.score],
    guesses: r.guesses,
    crackTime: r.crackTimes.offlineSlowHashingXPerSecond.display,
    crackTimes: Object.fromEntries(Object.entries(r.crackTimes).map(([k, v]) => [k, v.display])),
    warning: r.feedback.warning || null,
    suggestions: r.feedback.suggestions,
    length: [...params.password].length,
  };
};

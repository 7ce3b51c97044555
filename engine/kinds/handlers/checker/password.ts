import { createRequire } from 'node:module';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const require = createRequire(import.meta.url);

let factory: ZxcvbnFactory | undefined;

/** zxcvbn with the common and English dictionaries, loaded on first use (they are large). */
function zxcvbn(): ZxcvbnFactory {
  if (!factory) {
    const { ZxcvbnFactory: Factory } = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    const english = require('@zxcvbn-ts/language-en') as typeof import('@zxcvbn-ts/language-en');
    factory = new Factory({ translations: english.translations, graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary, ...english.dictionary } });
  }
  return factory;
}

const LABELS = ['very weak', 'weak', 'fair', 'strong', 'very strong'];

export default handler<Params['checker/password']>(({ params }) => {
  const r = zxcvbn().check(params.password);
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
});

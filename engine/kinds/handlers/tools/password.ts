import crypto from 'node:crypto';
import { invalidParameter } from '../../../core/errors.js';
import { batch } from '../../../features/tools/identifiers.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const SETS = {
  lowercase: 'abcdefghijklmnopqrstuvwxyz',
  uppercase: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  numbers: '0123456789',
  symbols: '!@#$%^&*()-_=+[]{};:,.?',
};

const LOOKALIKES = /[lIO01]/g;

/**
 * A password with at least one character from each chosen set, drawn without
 * modulo bias (crypto.randomInt). Look-alike characters are left out unless asked for.
 */
export default handler<Params['tools/password']>(({ params }) => {
  const sets = (Object.keys(SETS) as (keyof typeof SETS)[])
    .filter((name) => params[name])
    .map((name) => (params.similar ? SETS[name] : SETS[name].replace(LOOKALIKES, '')));
  if (sets.length === 0) throw invalidParameter('lowercase', 'at least one character set must be enabled');
  if (params.length < sets.length) throw invalidParameter('length', `must be at least ${sets.length} for the chosen sets`);
  const all = sets.join('');
  const make = () => {
    const chars = sets.map((set) => set[crypto.randomInt(set.length)]);
    while (chars.length < params.length) chars.push(all[crypto.randomInt(all.length)]);
    for (let i = chars.length - 1; i > 0; i--) {
      const j = crypto.randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j], chars[i]];
    }
    return chars.join('');
  };
  return batch(params.count, make);
});

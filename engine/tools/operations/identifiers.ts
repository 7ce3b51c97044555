import crypto from 'node:crypto';
import { v1, v4, v7 } from 'uuid';
import { ulid } from 'ulid';
import { customAlphabet, nanoid } from 'nanoid';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

/** Random identifiers and secrets, from the OS CSPRNG. `count` makes a batch. */

const batch = (count: number, make: () => string) => (count === 1 ? make() : Array.from({ length: count }, () => make()));

const UUIDS: Record<string, () => string> = { '1': v1, '4': v4, '7': v7 };

export const uuid: Operation = ({ params }) => batch(params.count, UUIDS[String(params.version)]);

export const ulidId: Operation = ({ params }) => batch(params.count, () => ulid());

export const nanoidId: Operation = ({ params }) => {
  const make = params.alphabet ? customAlphabet(params.alphabet, params.size) : () => nanoid(params.size);
  return batch(params.count, make);
};

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
export const password: Operation = ({ params }) => {
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
};

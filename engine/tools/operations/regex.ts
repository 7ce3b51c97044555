import vm from 'node:vm';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

/**
 * Regex tester. The match runs inside a vm context with a time limit: V8 aborts a
 * catastrophically backtracking pattern (e.g. ^(a+)+$ on "aaaa…!") after
 * `timeoutMs` instead of hanging the event loop.
 */
const MATCH_ALL = `(() => {
  const re = new RegExp(pattern, flags.includes('g') ? flags : flags + 'g');
  const out = [];
  for (const m of text.matchAll(re)) {
    out.push({ match: m[0], index: m.index, groups: m.slice(1), named: m.groups ? { ...m.groups } : null });
    if (out.length >= limit) break;
  }
  return JSON.stringify(out);
})()`;
const script = new vm.Script(MATCH_ALL);

export const regexTest: Operation = ({ params, options }) => {
  const { pattern, flags, text } = params;
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    throw invalidParameter('pattern', (err as Error).message);
  }
  const timeout = options.timeoutMs ?? 1000;
  let json: string;
  try {
    json = script.runInNewContext({ pattern, flags, text, limit: params.limit }, { timeout });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw invalidParameter('pattern', `took longer than ${timeout} ms on this text (catastrophic backtracking)`);
    }
    throw err;
  }
  const matches = JSON.parse(json);
  return { matched: matches.length > 0, count: matches.length, matches };
};

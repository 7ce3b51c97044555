import vm from 'node:vm';
import { invalidParameter } from '../../../core/errors.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/regex. The handler runs in the code pool (cost: cpu), whose wall-clock
 * limit terminates any runaway task; inside it the match also runs in a vm context
 * with its own, shorter time limit, so a catastrophically backtracking pattern
 * (e.g. ^(a+)+$ on "aaaa…!") is stopped without losing the worker and answers a 400
 * that names the pattern.
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

export default pureHandler<Params['tools/regex']>(({ params, options }) => {
  const { pattern, flags, text } = params;
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    throw invalidParameter('pattern', (err as Error).message);
  }
  const timeout: number = options.timeoutMs ?? 1000;
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
});

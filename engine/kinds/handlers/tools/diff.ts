import { createTwoFilesPatch, diffLines, diffWordsWithSpace } from 'diff';
import { tooComplex } from '../../../core/errors.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/diff. Myers' algorithm costs time with the product of the length and the
 * number of edits, so two long, very different texts are the expensive case: each diff
 * gives up beyond MAX_EDITS edits or TIMEOUT_MS (jsdiff's own limits, which return
 * undefined) and the answer is 422 too_complex rather than a long stall of a worker.
 */
const LIMITS = { maxEditLength: 5000, timeout: 700 };

export default pureHandler<Params['tools/diff']>(({ params: { a, b, mode } }) => {
  const parts = mode === 'lines' ? diffLines(a, b, LIMITS) : diffWordsWithSpace(a, b, LIMITS);
  const patch = parts && createTwoFilesPatch('a', 'b', a, b, '', '', { context: 3, ...LIMITS });
  if (!parts || patch === undefined)
    throw tooComplex(`the texts differ in more than ${LIMITS.maxEditLength} places or took longer than ${LIMITS.timeout} ms to compare`);
  const changes = parts.map((p) => ({ type: p.added ? 'added' : p.removed ? 'removed' : 'same', value: p.value }));
  return {
    identical: changes.every((c) => c.type === 'same'),
    added: changes.filter((c) => c.type === 'added').length,
    removed: changes.filter((c) => c.type === 'removed').length,
    changes,
    patch,
  };
});

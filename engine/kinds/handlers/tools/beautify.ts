import jsBeautify from 'js-beautify';
import { invalidParameter } from '../../../core/errors.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * The beautify family (js-beautify): `options.language` is js, css or html. Every
 * line is indented by its depth, so the output grows with depth × lines: 20,000 open
 * brackets made 400 MB. Code nested deeper than MAX_DEPTH brackets is refused (no real
 * program comes near); HTML is bounded by the pool's time and memory limits.
 */
const BEAUTIFIERS = { js: jsBeautify.js, css: jsBeautify.css, html: jsBeautify.html };
const MAX_DEPTH = 200;

export default pureHandler<Params['tools/beautify']>(({ params, options }) => {
  const language = options.language as keyof typeof BEAUTIFIERS;
  if (language !== 'html' && bracketDepth(params.code) > MAX_DEPTH) throw invalidParameter('code', `nests deeper than ${MAX_DEPTH} brackets`);
  return nestingLimited('code', () => BEAUTIFIERS[language](params.code, { indent_size: params.indent, end_with_newline: false }));
});

/** The deepest nesting of (), [] and {} (brackets inside strings count too: a bound, not a parse). */
function bracketDepth(code: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) max = Math.max(max, ++depth);
    else if ((c === 41 || c === 93 || c === 125) && depth > 0) depth--;
  }
  return max;
}

import YAML from 'yaml';
import { invalidParameter, tooComplex } from '../../../core/errors.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/yaml2json. Parse errors name the position. Aliases are expanded within the
 * yaml library's limit (MAX_ALIASES): a document of references to references grows
 * exponentially when expanded (a "billion laughs"), so one past it is 422 too_complex.
 */
const MAX_ALIASES = 100;

export default pureHandler<Params['tools/yaml2json']>(({ params }) =>
  nestingLimited('yaml', () => {
    const doc = YAML.parseDocument(params.yaml);
    if (doc.errors.length) throw invalidParameter('yaml', `is not valid YAML (${doc.errors[0]!.message.split('\n')[0]})`);
    try {
      return doc.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (err) {
      // the library's own words for its limit (a ReferenceError); anything else is a bug
      if (err instanceof ReferenceError && /alias count/i.test(err.message))
        throw tooComplex(`the YAML expands its aliases more than the ${MAX_ALIASES} times allowed`);
      throw err;
    }
  }),
);

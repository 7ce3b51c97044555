import YAML from 'yaml';
import { invalidParameter } from '../../errors.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';
import type { Params } from '../params.generated.js';

/** /api/tools/yaml2json. Parse errors name the position; aliases are expanded within the yaml library's alias limit. */
export default pureHandler<Params['tools/yaml2json']>(({ params }) =>
  nestingLimited('yaml', () => {
    const doc = YAML.parseDocument(params.yaml);
    if (doc.errors.length) throw invalidParameter('yaml', `is not valid YAML (${doc.errors[0]!.message.split('\n')[0]})`);
    return doc.toJS();
  }),
);

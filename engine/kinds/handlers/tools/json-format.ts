import { parseJson } from '../../../features/tools/json.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** /api/tools/jsonformat: pretty-printed with the indent asked for. */
export default pureHandler<Params['tools/json-format']>(({ params }) =>
  nestingLimited('json', () => JSON.stringify(parseJson(params.json), null, params.indent)),
);

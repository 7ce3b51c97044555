import { parseJson } from '../../tools/json.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';

/** /api/tools/jsonformat: pretty-printed with the indent asked for. */
export default pureHandler<{ json: string; indent: number }>(({ params }) =>
  nestingLimited('json', () => JSON.stringify(parseJson(params.json), null, params.indent)),
);

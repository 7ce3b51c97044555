import YAML from 'yaml';
import { parseJson } from '../../../features/tools/json.js';
import { nestingLimited } from '../../../features/tools/nesting.js';
import { pureHandler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** The json-convert family: /api/tools/jsonminify and /api/tools/json2yaml. */
export const minify = pureHandler<Params['tools/json-convert#minify']>(({ params }) => nestingLimited('json', () => JSON.stringify(parseJson(params.json))));

export const toYaml = pureHandler<Params['tools/json-convert#toYaml']>(({ params }) => nestingLimited('json', () => YAML.stringify(parseJson(params.json))));

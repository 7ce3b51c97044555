import YAML from 'yaml';
import { parseJson } from '../../tools/json.js';
import { nestingLimited } from '../../tools/nesting.js';
import { pureHandler } from '../types.js';

/** The json-convert family: /api/tools/jsonminify and /api/tools/json2yaml. */
export const minify = pureHandler<{ json: string }>(({ params }) => nestingLimited('json', () => JSON.stringify(parseJson(params.json))));

export const toYaml = pureHandler<{ json: string }>(({ params }) => nestingLimited('json', () => YAML.stringify(parseJson(params.json))));

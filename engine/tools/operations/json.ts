import YAML from 'yaml';
import { invalidParameter } from '../../errors.js';
import type { Operation } from './types.js';

/** JSON and YAML conversions. Parse errors name the position so the caller can fix the input. */

export function parseJson(text: string, param = 'json'): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalidParameter(param, `is not valid JSON (${(err as Error).message})`);
  }
}

export const jsonFormat: Operation = ({ params }) => JSON.stringify(parseJson(params.json), null, params.indent);

export const jsonMinify: Operation = ({ params }) => JSON.stringify(parseJson(params.json));

export const jsonToYaml: Operation = ({ params }) => YAML.stringify(parseJson(params.json));

export const yamlToJson: Operation = ({ params }) => {
  const doc = YAML.parseDocument(params.yaml);
  if (doc.errors.length) throw invalidParameter('yaml', `is not valid YAML (${doc.errors[0].message.split('\n')[0]})`);
  return doc.toJS();
};

import { invalidParameter } from '../../core/errors.js';

/** JSON text from a client: parse errors name the parameter and the position, so the caller can fix the input. */
export function parseJson(text: string, param = 'json'): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw invalidParameter(param, `is not valid JSON (${(err as Error).message})`);
  }
}

import { invalidParameter, isStackOverflow } from '../../core/errors.js';

/**
 * Parsers and printers of nested documents (JSON, YAML, Markdown, HTML) recurse per
 * level, so a deeply nested input overflows the stack. That is the client's input,
 * not a bug: run the work here and such an input is a 400 naming the parameter.
 */
export async function nestingLimited<T>(param: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isStackOverflow(err)) throw invalidParameter(param, 'is nested too deeply to process');
    throw err;
  }
}

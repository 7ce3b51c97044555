import path from 'node:path';
import { json, type AdapterSetup, type Call, type Output } from '../../contract/call.js';
import { FileOutput, Reply } from '../../contract/handler.js';

export interface OutputShape {
  /** Put the value under this key of `result` (a shape some clients read). */
  wrap?: string | null;
  /** For file outputs: `url` answers the URL string alone, `object` (default) adds size, type and hash. */
  fileResult?: 'url' | 'object';
}

/**
 * What a code handler returned, as the engine's output: a `Reply` as is; a generated
 * file hosted (result = its URL and facts) or, with stream=true or a binary response,
 * sent as bytes; anything else is `result` (under `wrap` when set).
 */
export async function toOutput(value: unknown, shape: OutputShape, call: Call, setup: AdapterSetup): Promise<Output> {
  if (value instanceof Reply) return value.output;
  if (value instanceof FileOutput) {
    if (setup.endpoint.response === 'binary' || call.params.stream) {
      const basename = path.posix.basename(setup.endpoint.path) || 'file';
      return { type: 'binary', body: value.data, contentType: value.contentType, filename: `${basename}.${value.ext}` };
    }
    const stored = await setup.files.put(value.data, { ext: value.ext });
    return json(shape.fileResult === 'url' ? stored.url : { url: stored.url, size: stored.size, mime: value.contentType, sha256: stored.sha256 });
  }
  return json(shape.wrap ? { [shape.wrap]: value } : value);
}

/** The config schema properties of an output shape (shared by the kinds that return handler values). */
export const OUTPUT_SHAPE_SCHEMA = {
  wrap: { type: ['string', 'null'], pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
  fileResult: { enum: ['url', 'object'] },
} as const;

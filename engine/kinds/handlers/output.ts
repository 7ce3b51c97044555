import { json, type AdapterSetup, type Call, type Output } from '../../contract/call.js';
import { answerFile, FileOutput, hosted } from '../../contract/file-output.js';
import { Reply } from '../../contract/handler.js';

export interface OutputShape {
  /** Put the value under this key of `result` (a shape some clients read). */
  wrap?: string | null;
  /** For file outputs: `url` answers the URL string alone, `object` (default) adds size, type and hash. */
  fileResult?: 'url' | 'object';
}

/**
 * What a code handler returned, as the engine's output: a `Reply` as is; a generated
 * file as the engine's one decision makes it (contract/file-output.ts: its bytes, or
 * hosted with its answer); anything else is `result` (under `wrap` when set).
 */
export async function toOutput(value: unknown, shape: OutputShape, call: Call, setup: AdapterSetup): Promise<Output> {
  if (value instanceof Reply) return value.output;
  if (value instanceof FileOutput) return answerFile(value, call, setup, shape.fileResult === 'url' ? hosted.url : undefined);
  return json(shape.wrap ? { [shape.wrap]: value } : value);
}

/** The config schema properties of an output shape (shared by the kinds that return handler values). */
export const OUTPUT_SHAPE_SCHEMA = {
  wrap: { type: ['string', 'null'], pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
  fileResult: { enum: ['url', 'object'] },
} as const;

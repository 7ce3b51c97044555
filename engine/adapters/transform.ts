import { OPERATIONS } from '../tools/operations/index.js';
import type { Operation } from '../tools/operations/types.js';
import { OUTPUT_SHAPE_SCHEMA, toOutput, type OutputShape } from '../handlers/output.js';
import type { AdapterKind, Output } from './types.js';

/**
 * Local tools over libraries (encoders, hashes, formatters, validators, QR…): the
 * manifest names an operation from the closed table in engine/tools/operations and
 * may fix some of its options, so a new tool endpoint is a YAML file, not code.
 * An operation's value becomes `result`; a generated file is hosted (result = its
 * URL and facts) or, with stream=true or a binary response, sent as bytes.
 */
interface TransformConfig extends OutputShape {
  operation: string;
  /** Fixed inputs of the operation for this endpoint (e.g. `algorithm: sha256`). */
  options?: Record<string, unknown>;
}

export const transform: AdapterKind<TransformConfig> = {
  kind: 'transform',
  cost: 'light',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['operation'],
    properties: {
      operation: { enum: Object.keys(OPERATIONS), description: 'An operation of engine/tools/operations' },
      options: { type: 'object' },
      ...OUTPUT_SHAPE_SCHEMA,
    },
  },
  create(config, setup) {
    const load = OPERATIONS[config.operation];
    let operation: Operation | undefined;
    const options = Object.freeze({ ...config.options });
    return async (call): Promise<Output> => {
      operation ??= await load();
      return toOutput(await operation({ params: call.params, options, call, setup }), config, call, setup);
    };
  },
};

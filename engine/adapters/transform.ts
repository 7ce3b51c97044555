import path from 'node:path';
import { OPERATIONS } from '../tools/operations/index.js';
import { FileOutput, type Operation } from '../tools/operations/types.js';
import { json, type AdapterKind, type Output } from './types.js';

/**
 * Local tools over libraries (encoders, hashes, formatters, validators, QR…): the
 * manifest names an operation from the closed table in engine/tools/operations and
 * may fix some of its options, so a new tool endpoint is a YAML file, not code.
 * An operation's value becomes `result`; a generated file is hosted (result = its
 * URL and facts) or, with stream=true or a binary response, sent as bytes.
 */
interface TransformConfig {
  operation: string;
  /** Fixed inputs of the operation for this endpoint (e.g. `algorithm: sha256`). */
  options?: Record<string, unknown>;
  /** Put the value under this key of `result` (a shape some clients read). */
  wrap?: string | null;
  /** For file outputs: `url` answers the URL string alone, `object` (default) adds size, type and hash. */
  fileResult?: 'url' | 'object';
}

export const transform: AdapterKind<TransformConfig> = {
  kind: 'transform',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['operation'],
    properties: {
      operation: { enum: Object.keys(OPERATIONS), description: 'An operation of engine/tools/operations' },
      options: { type: 'object' },
      wrap: { type: ['string', 'null'], pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      fileResult: { enum: ['url', 'object'] },
    },
  },
  create(config, setup) {
    const load = OPERATIONS[config.operation];
    let operation: Operation | undefined;
    const options = Object.freeze({ ...config.options });
    const basename = path.posix.basename(setup.endpoint.path) || 'file';
    return async (call): Promise<Output> => {
      operation ??= await load();
      const value = await operation({ params: call.params, options, call, setup });
      if (value instanceof FileOutput) {
        if (setup.endpoint.response === 'binary' || call.params.stream) {
          return { type: 'binary', body: value.data, contentType: value.contentType, filename: `${basename}.${value.ext}` };
        }
        const stored = await setup.files.put(value.data, { ext: value.ext });
        const result = config.fileResult === 'url' ? stored.url : { url: stored.url, size: stored.size, mime: value.contentType, sha256: stored.sha256 };
        return json(result);
      }
      return json(config.wrap ? { [config.wrap]: value } : value);
    };
  },
};

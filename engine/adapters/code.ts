import { HANDLER_NAME, loadHandler, missingHandler } from '../handlers/load.js';
import { OUTPUT_SHAPE_SCHEMA, toOutput, type OutputShape } from '../handlers/output.js';
import type { Handler } from '../handlers/types.js';
import type { AdapterKind } from './types.js';

/**
 * Code endpoints: the manifest names its handler module
 * (`engine/handlers/<category>/<name>.ts`, see handlers/types.ts), which is imported
 * on the endpoint's first call. The compile step and lint check that the module exists.
 */
interface CodeConfig extends OutputShape {
  /** `<category>/<name>` or `<category>/<name>#<export>`. */
  handler: string;
  /** Fixed inputs for this endpoint (e.g. `algorithm: sha256`), handed to the handler as `options`. */
  options?: Record<string, unknown>;
}

export const code: AdapterKind<CodeConfig> = {
  kind: 'code',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['handler'],
    properties: {
      handler: { type: 'string', pattern: HANDLER_NAME, description: 'Handler module under engine/handlers: <category>/<name>[#export]' },
      options: { type: 'object' },
      ...OUTPUT_SHAPE_SCHEMA,
    },
  },
  verify: (config) => {
    const missing = missingHandler(config.handler);
    return missing ? ['handler', missing] : undefined;
  },
  async create(config, setup) {
    const run: Handler = await loadHandler(config.handler);
    const options = Object.freeze({ ...config.options });
    return async (call) => toOutput(await run({ params: call.params, options, call, setup }), config, call, setup);
  },
};

import { modelUnavailable } from '../../features/ai/catalog.js';
import { onPath } from '../../core/binaries.js';
import { HANDLER_NAME, loadHandler, missingHandler } from '../handlers/load.js';
import { OUTPUT_SHAPE_SCHEMA, toOutput, type OutputShape } from '../handlers/output.js';
import type { Handler } from '../../contract/handler.js';
import type { AdapterKind, EndpointHandler } from '../../contract/call.js';

/**
 * Code endpoints: the manifest names its handler module
 * (`engine/kinds/handlers/<category>/<name>.ts`, see handlers/types.ts), which is imported
 * on the endpoint's first call. The compile step and lint check that the module exists.
 * The endpoint's cost class decides where the handler runs: `cost: cpu` handlers run
 * in the code worker pool (handlers/cpu-pool.ts) with params and options only, under
 * a wall-clock and memory limit; every other class runs on the event loop with the
 * call and the adapter setup.
 */
interface CodeConfig extends OutputShape {
  /** `<category>/<name>` or `<category>/<name>#<export>`. */
  handler: string;
  /** Fixed inputs for this endpoint (e.g. `algorithm: sha256`), handed to the handler as `options`. */
  options?: Record<string, unknown>;
  /**
   * Upstreams the handler calls, any one of which will do: unavailable (with each one's reason) when none is
   * configured. `{ name, bin }` is an upstream that is usable only with these executables too (e.g. a fingerprint tool).
   */
  upstreams?: (string | { name: string; bin: string[] })[];
  /** Image model alias (engine/features/ai/models.yaml) the handler calls: unavailable until a provider of it is configured. */
  imageModel?: string;
  /** Video model alias (engine/features/ai/models.yaml), likewise. */
  videoModel?: string;
}

export const code: AdapterKind<CodeConfig> = {
  kind: 'code',
  cost: 'light',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['handler'],
    properties: {
      handler: { type: 'string', pattern: HANDLER_NAME, description: 'Handler module under engine/kinds/handlers: <category>/<name>[#export]' },
      options: { type: 'object' },
      upstreams: {
        type: 'array',
        minItems: 1,
        items: {
          oneOf: [
            { type: 'string' },
            {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'bin'],
              properties: { name: { type: 'string' }, bin: { type: 'array', minItems: 1, items: { type: 'string' } } },
            },
          ],
        },
        description: 'Upstreams the handler calls; the endpoint is unavailable unless one is configured ({name, bin}: and these executables are installed)',
      },
      imageModel: { type: 'string', description: 'Image model alias the handler calls; the endpoint is unavailable until a provider of it is configured' },
      videoModel: { type: 'string', description: 'Video model alias the handler calls; the endpoint is unavailable until a provider of it is configured' },
      ...OUTPUT_SHAPE_SCHEMA,
    },
  },
  verify: (config) => {
    const missing = missingHandler(config.handler);
    return missing ? ['handler', missing] : undefined;
  },
  unavailable(config, setup) {
    if (config.imageModel) return modelUnavailable('images', config.imageModel, setup.upstreams, setup.config.env);
    if (config.videoModel) return modelUnavailable('videos', config.videoModel, setup.upstreams, setup.config.env);
    if (!config.upstreams) return undefined;
    const reasons = config.upstreams.map((u) => {
      if (typeof u === 'string') return setup.upstreams.unavailable(u);
      const missing = u.bin.filter((bin) => !onPath(bin, setup.config.env));
      return setup.upstreams.unavailable(u.name) ?? (missing.length ? `${u.name}: ${missing.join(', ')} not installed` : undefined);
    });
    return reasons.some((r) => !r) ? undefined : reasons.join('; ');
  },
  async create(config, setup): Promise<EndpointHandler> {
    const options = Object.freeze({ ...config.options });
    if (setup.endpoint.cost === 'cpu') {
      // the module is imported by the pool's workers, never on the event loop
      const { runPure } = await import('../handlers/cpu-pool.js');
      const limits = { taskMs: setup.endpoint.limits?.taskMs, services: setup };
      return async (call) =>
        toOutput(await runPure({ handler: config.handler, params: call.params, options }, { ...limits, signal: call.signal }), config, call, setup);
    }
    const run: Handler = await loadHandler(config.handler);
    return async (call) => toOutput(await run({ params: call.params, options, call, setup }), config, call, setup);
  },
};

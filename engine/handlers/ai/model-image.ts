import { routeModel } from '../../ai/catalog.js';
import { generateImage } from '../../ai/openai-api.js';
import { unavailable } from '../../errors.js';
import { handler } from '../types.js';

/**
 * /api/ai/<image model>: one picture from `prompt` through the OpenAI images API of the
 * first provider configured for the model alias in the manifest's `imageModel` (which also
 * makes the endpoint unavailable until one is). The answer is the provider's URL, or a
 * file hosted here when the provider sends the bytes.
 */
export default handler<{ prompt: string }>(async ({ params, options, call, setup }) => {
  const resolution = routeModel('images', String(options.model), setup.upstreams, setup.config.env);
  if (!('route' in resolution)) throw unavailable('missing' in resolution ? resolution.missing : `model ${options.model} is not in the model registry`);
  const request = {
    route: resolution.route,
    prompt: params.prompt,
    size: options.size as string | undefined,
    timeoutMs: setup.endpoint.limits.timeoutMs,
    signal: call.signal,
  };
  const image = await generateImage({ upstreams: setup.upstreams }, request);
  return image.url ?? (await setup.files.put(image.png!, { ext: 'png' })).url;
});

import { requireRoute } from '../../../features/ai/catalog.js';
import { generateImage } from '../../../features/ai/openai-api.js';
import { upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput, hosted, wantsBytes } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * /api/ai/<image model>: one picture from `prompt` through the OpenAI images API of the
 * first provider configured for the model alias in the manifest's `imageModel` (which also
 * makes the endpoint unavailable until one is). `options.styleSuffix` is added to the prompt
 * (the look a path's name promises: realistic, sketch…). The answer is the provider's URL, or
 * a file hosted here when the provider sends the bytes; `options.list` puts it in a list. An
 * endpoint whose response is binary answers the picture itself (fetched from the provider's
 * link when it gave one), or its link with `hosted=true`.
 */
export default handler<Params['ai/model-image']>(async ({ params, options, call, setup }) => {
  const route = requireRoute('images', String(options.model), setup.upstreams, setup.config.env);
  const request = {
    route,
    prompt: `${params.prompt}${options.styleSuffix ?? ''}`,
    size: options.size as string | undefined,
    timeoutMs: setup.endpoint.limits.timeoutMs,
    signal: call.signal,
  };
  const image = await generateImage({ upstreams: setup.upstreams }, request);
  // the provider's bytes: the engine answers them, or hosts them and answers the link
  if (image.png) return new FileOutput(image.png, 'png', 'image/png', { answer: options.list ? [hosted.url] : hosted.url });
  // the provider's link is the answer, unless the call wants the picture itself
  if (!wantsBytes(setup.endpoint, call.params)) return options.list ? [image.url!] : image.url!;
  const fetched = await setup.http
    .fetchUserUrl(image.url!, { timeoutMs: 30_000, signal: call.signal, maxBytes: MAX_IMAGE_BYTES, accept: 'image/*' })
    .catch((err: Error) => {
      throw upstreamError(route.upstream, `the generated image could not be fetched: ${err.message}`);
    });
  const type = String(fetched.contentType ?? 'image/png')
    .split(';')[0]!
    .trim();
  const ext = type === 'image/jpeg' ? 'jpg' : type === 'image/webp' ? 'webp' : 'png';
  return new FileOutput(fetched.body, ext, type.startsWith('image/') ? type : 'image/png');
});

import { photoUpscale } from '../../../features/effects/photo-op.js';
import { handler } from '../../../contract/handler.js';
import { hosted } from '../../../contract/file-output.js';
import { unavailable } from '../../../core/errors.js';
import { missingPackages } from '../../../core/packages.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/imageupscaler: Lanczos or ESRGAN-slim (the `model` param) in the neural worker.
 * `model=upscale` and `model=enhance` (what Toxic-MD sends) are lanczos-4x and lanczos-2x. The
 * hosted answer is the picture's link as `result`, or with shape=object the effects'
 * `{image_url, format, width, height, size}`; stream=true the bytes.
 */
const CLIENT_MODELS: Record<string, string> = { upscale: 'lanczos-4x', enhance: 'lanczos-2x' };

export default handler<Params['tools/imageupscaler']>(async ({ params, call, setup }) => {
  const { shape: _shape, ...rest } = call.params;
  const model = params.model && CLIENT_MODELS[params.model];
  // the neural models run on the optional feature optional/neural; Lanczos needs nothing more
  const missing = params.model?.startsWith('esrgan-') ? missingPackages(['onnxruntime-node']) : undefined;
  if (missing) throw unavailable(`the neural models need ${missing}; the lanczos models work without it`);
  const picture = await photoUpscale(setup, { ...call, params: model ? { ...rest, model } : rest });
  return params.shape === 'object' ? picture : picture.withAnswer(hosted.url);
});

import sharp from 'sharp';
import { routeModel } from '../../ai/catalog.js';
import { editImage } from '../../ai/openai-api.js';
import { fetchPhoto, PHOTO_MAX_PIXELS } from '../../effects/photo-input.js';
import { invalidParameter, unavailable } from '../../errors.js';
import { handler } from '../types.js';

/** The longest side sent to the image model: what OpenAI's edit models work at. */
const MAX_SIDE = 1024;

/**
 * /api/tools/photoeditor (v2, v3, imageeditor, nanobanana): the photo at `url` changed as
 * `prompt` says, by the image model alias in the manifest's `imageModel` through the
 * OpenAI-compatible image-edit API (POST /images/edits, multipart image + prompt) of its
 * first configured provider. The photo is fetched here (SSRF-guarded) and sent as a PNG of
 * at most 1024 px a side; the answer is the edited picture's link (the provider's, or a
 * file hosted here when the provider sends the bytes), the string clients of the genre read.
 */
export default handler<{ url: string; prompt: string }>(async ({ params, options, call, setup }) => {
  const resolution = routeModel('images', String(options.model), setup.upstreams, setup.config.env);
  if (!('route' in resolution)) throw unavailable('missing' in resolution ? resolution.missing : `model ${options.model} is not in the model registry`);
  const photo = await fetchPhoto(setup, call, 'url');
  const png = await sharp(photo, { limitInputPixels: PHOTO_MAX_PIXELS })
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
    .catch(() => {
      throw invalidParameter('url', `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`);
    });
  const edited = await editImage(
    { upstreams: setup.upstreams },
    { route: resolution.route, prompt: params.prompt, image: png, timeoutMs: setup.endpoint.limits.timeoutMs, signal: call.signal },
  );
  return edited.url ?? (await setup.files.put(edited.png!, { ext: 'png' })).url;
});

import sharp from 'sharp';
import { requireRoute } from '../../../features/ai/catalog.js';
import { editImage } from '../../../features/ai/openai-api.js';
import { fetchPhoto, PHOTO_MAX_PIXELS, unreadablePhoto } from '../../../features/effects/photo-input.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput, hosted, wantsBytes } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/** The longest side sent to the image model: what OpenAI's edit models work at. */
const MAX_SIDE = 1024;

/**
 * /api/tools/photoeditor (v2, v3, imageeditor, nanobanana): the photo at `url` changed as
 * `prompt` says, by the image model alias in the manifest's `imageModel` through the
 * OpenAI-compatible image-edit API (POST /images/edits, multipart image + prompt) of its
 * first configured provider. The photo is fetched here (SSRF-guarded) and sent as a PNG of
 * at most 1024 px a side; the answer is the edited picture's link (the provider's, or a
 * file hosted here when the provider sends the bytes), the string clients of the genre read.
 * An endpoint with a fixed `options.prompt` (reimagine) takes no prompt; one whose response is
 * binary answers the picture itself (fetched from the provider's link when it gave one), or
 * its link with `hosted=true`.
 */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

export default handler<Params['tools/photoeditor']>(async ({ params, options, call, setup }) => {
  const route = requireRoute('images', String(options.model), setup.upstreams, setup.config.env);
  const photo = await fetchPhoto(setup, call, 'url');
  const png = await sharp(photo, { limitInputPixels: PHOTO_MAX_PIXELS })
    .rotate()
    .resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer()
    .catch(() => {
      throw unreadablePhoto('url');
    });
  const edited = await editImage(
    { upstreams: setup.upstreams },
    { route, prompt: params.prompt ?? String(options.prompt), image: png, timeoutMs: setup.endpoint.limits.timeoutMs, signal: call.signal },
  );
  // the provider's bytes: the engine answers them, or hosts them and answers the link
  if (edited.png) return new FileOutput(edited.png, 'png', 'image/png', { answer: hosted.url });
  // the provider's link is the answer, unless the call wants the picture itself
  if (!wantsBytes(setup.endpoint, call.params)) return edited.url!;
  const fetched = await setup.http.fetchUserUrl(edited.url!, { timeoutMs: 30_000, signal: call.signal, maxBytes: MAX_IMAGE_BYTES, accept: 'image/*' });
  const type = String(fetched.contentType ?? 'image/png')
    .split(';')[0]!
    .trim();
  return new FileOutput(fetched.body, type === 'image/jpeg' ? 'jpg' : type === 'image/webp' ? 'webp' : 'png', type.startsWith('image/') ? type : 'image/png');
});

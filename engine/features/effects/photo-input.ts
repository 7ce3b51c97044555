import { ApiError, invalidParameter, payloadTooLarge } from '../../core/errors.js';
import type { AdapterSetup, Call } from '../../contract/call.js';

/** Largest photo accepted for effects and image manipulations, in bytes. */
export const PHOTO_MAX_BYTES = 15 * 1024 * 1024;
/** Largest decoded photo, in pixels (sharp limitInputPixels): the decompression-bomb guard. */
export const PHOTO_MAX_PIXELS = 40_000_000;

/**
 * A client photo the decoder (sharp) refused: not an image, corrupt, or over PHOTO_MAX_PIXELS.
 * Thrown where the photo is decoded, often in a worker of the render or neural pool, which
 * knows no request: its code crosses the thread (BoundedPool carries ApiErrors) and the caller,
 * which knows the parameter the photo came from, answers it with photoParamError.
 */
export const photoUnreadable = (why: string) => new ApiError('photo_unreadable', `photo unreadable: ${why}`);

/** The client's 400 for a photo that cannot be decoded, naming its parameter. */
export const unreadablePhoto = (param: string) => invalidParameter(param, `not a supported image, or over ${PHOTO_MAX_PIXELS / 1e6} megapixels`);

/** `err` as the answer to a request whose photo came from `param`: photoUnreadable becomes that param's 400, anything else stays. */
export const photoParamError = (err: unknown, param = 'url'): unknown =>
  err instanceof ApiError && err.code === 'photo_unreadable' ? unreadablePhoto(param) : err;

const DATA_URL = /^data:(image\/(?:png|jpeg|webp|gif|avif));base64,([A-Za-z0-9+/=\s]+)$/;

/**
 * The bytes of a client photo named by a URL param. http(s) URLs go through the
 * SSRF-guarded client with a byte cap; a base64 `data:image/...` URL (which some
 * bots send instead of hosting the image) is decoded locally under the same cap.
 */
export async function fetchPhoto(setup: AdapterSetup, call: Call, param = 'url'): Promise<Buffer> {
  const url = String(call.params[param]);
  if (url.startsWith('data:')) {
    const m = DATA_URL.exec(url);
    if (!m) throw invalidParameter(param, 'a data URL must be data:image/<png|jpeg|webp|gif|avif>;base64,...');
    if ((m[2].length * 3) / 4 > PHOTO_MAX_BYTES) throw payloadTooLarge(PHOTO_MAX_BYTES);
    return Buffer.from(m[2], 'base64');
  }
  const fetched = await setup.http.fetchUserUrl(url, { param, timeoutMs: 15_000, signal: call.signal, maxBytes: PHOTO_MAX_BYTES, accept: 'image/*' });
  return fetched.body;
}

import sharp from 'sharp';
import { upstreamError } from '../../core/errors.js';
import { FileOutput, hosted } from '../../contract/file-output.js';

/**
 * A PNG made by an image service (remove.bg, rembg, IOPaint) as the call's file: checked to
 * be a PNG (anything else is the service's fault, 502). Hosted, it answers the link twice
 * (`image_url` is what clients read), its size and the service:
 * `{image_url, url, format, width, height, size, engine}`.
 */
export async function servicePng(engine: string, png: Buffer): Promise<FileOutput> {
  const meta = await sharp(png)
    .metadata()
    .catch(() => undefined);
  if (meta?.format !== 'png') throw upstreamError(engine, 'the answer is not a PNG image');
  const answer = { image_url: hosted.url, url: hosted.url, format: 'png', width: meta.width, height: meta.height, size: hosted.size, engine };
  return new FileOutput(png, 'png', 'image/png', { answer });
}

import sharp from 'sharp';
import { upstreamError } from '../../core/errors.js';
import { FileOutput } from '../../contract/file-output.js';
import type { AdapterSetup } from '../../contract/call.js';

/** What a hosted service picture answers: the link twice (`image_url` is what clients read), its size and the service. */
export interface HostedServicePng {
  image_url: string;
  url: string;
  format: 'png';
  width: number | undefined;
  height: number | undefined;
  size: number;
  engine: string;
}

/**
 * A PNG made by an image service (remove.bg, rembg, IOPaint) as the answer: checked to
 * be a PNG (anything else is the service's fault, 502), then its bytes with
 * `stream=true`, else hosted.
 */
export async function deliverServicePng(setup: AdapterSetup, engine: string, png: Buffer, stream: boolean | undefined): Promise<FileOutput | HostedServicePng> {
  const meta = await sharp(png)
    .metadata()
    .catch(() => undefined);
  if (meta?.format !== 'png') throw upstreamError(engine, 'the answer is not a PNG image');
  if (stream) return new FileOutput(png, 'png', 'image/png');
  const stored = await setup.files.put(png, { ext: 'png' });
  return { image_url: stored.url, url: stored.url, format: 'png', width: meta.width, height: meta.height, size: stored.size, engine };
}

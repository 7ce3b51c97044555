import { json, type AdapterSetup, type Call, type Output } from '../../contract/call.js';
import type { RenderResult } from './render.js';

/** A rendered picture as the answer: its bytes with stream=true, else hosted with `{image_url, format, width, height, size}`. */
export async function deliver(setup: AdapterSetup, call: Call, r: RenderResult, name: string): Promise<Output> {
  if (call.params.stream) {
    return {
      type: 'binary',
      body: r.data,
      contentType: r.contentType,
      filename: `${name}.${r.format}`,
      size: r.data.length,
      headers: { 'Cache-Control': 'public, max-age=86400' },
    };
  }
  const stored = await setup.files.put(r.data, { ext: r.format });
  return json({ image_url: stored.url, format: r.format, width: r.width, height: r.height, size: r.data.length });
}

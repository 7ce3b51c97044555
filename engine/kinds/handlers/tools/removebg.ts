import type { AdapterSetup, Call } from '../../../contract/call.js';
import { fetchPhoto } from '../../../features/effects/photo-input.js';
import { servicePng } from '../../../features/effects/service-png.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/removebg (and removebgv2): the photo with its background made
 * transparent, by a real segmentation service, the first one configured: remove.bg's
 * API (REMOVEBG_API_KEY) or a self-hosted rembg server (REMBG_URL). The in-process
 * models found for this are AGPL or GPL, so none is bundled. The photo is fetched here,
 * through the SSRF guard, and uploaded: the service never fetches a client's URL.
 */
type Engine = 'remove-bg' | 'rembg';
const ENGINES: Engine[] = ['remove-bg', 'rembg'];

async function removeBg(setup: AdapterSetup, call: Call, photo: Buffer): Promise<Buffer> {
  const answer = await setup.upstreams.buffer('remove-bg', {
    method: 'POST',
    path: '/v1.0/removebg',
    headers: { accept: 'image/png' },
    form: { image_file_b64: photo.toString('base64'), size: 'auto', format: 'png' },
    signal: call.signal,
    maxBytes: 25 * 1024 * 1024,
  });
  return answer.body;
}

async function rembg(setup: AdapterSetup, call: Call, photo: Buffer): Promise<Buffer> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(photo)]), 'photo');
  // the platform's own multipart encoder: the body bytes and the boundary header
  const encoded = new Response(form);
  const answer = await setup.upstreams.buffer('rembg', {
    method: 'POST',
    path: '/api/remove',
    headers: { 'content-type': encoded.headers.get('content-type')! },
    body: Buffer.from(await encoded.arrayBuffer()),
    signal: call.signal,
    maxBytes: 25 * 1024 * 1024,
  });
  return answer.body;
}

export default handler<Params['tools/removebg']>(async ({ call, setup }) => {
  const engine = ENGINES.find((name) => !setup.upstreams.unavailable(name))!;
  const photo = await fetchPhoto(setup, call, 'url');
  const cutout = await (engine === 'remove-bg' ? removeBg : rembg)(setup, call, photo);
  return servicePng(engine, cutout);
});

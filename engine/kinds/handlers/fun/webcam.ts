import { notFound, upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * /api/fun/webcam: a current snapshot of a random live webcam from Windy's Webcams API,
 * as image bytes (what clients of the genre read), or, for /api/fun/webcaminfo
 * (`options.json`), its facts. The
 * listing is asked at a random offset within the free tier's 1,000; the picture comes
 * from the link Windy hands out, fetched like any outside URL (SSRF guard, size cap).
 */
interface Webcam {
  webcamId?: number;
  title?: string;
  status?: string;
  lastUpdatedOn?: string;
  images?: { current?: { preview?: string; thumbnail?: string } };
  location?: { city?: string; region?: string; country?: string; latitude?: number; longitude?: number };
  urls?: { detail?: string };
  player?: { day?: string };
}

const PAGE = 50;
const FREE_OFFSET_LIMIT = 1000;

export default handler<Params['fun/webcam']>(async ({ params, options, call, setup }) => {
  const list = (offset: number) =>
    setup.upstreams.call<{ total?: number; webcams?: Webcam[] }>('windy-webcams', {
      path: '/webcams',
      query: { limit: PAGE, offset, include: 'images,location,urls,player', countries: params.country?.toUpperCase(), categories: params.category },
      signal: call.signal,
    });
  let answer = await list(Math.floor((Math.random() * FREE_OFFSET_LIMIT) / PAGE) * PAGE);
  // a filter with fewer webcams than the offset: start from the first page
  if (!answer?.webcams?.length) answer = await list(0);
  if (!Array.isArray(answer?.webcams)) throw upstreamError('windy-webcams', 'no webcams list in the answer');
  const live = answer.webcams.filter((w) => w.status === 'active' && w.images?.current?.preview);
  if (!live.length) throw notFound('No live webcam matches');
  const webcam = live[Math.floor(Math.random() * live.length)];
  const facts = {
    id: webcam.webcamId,
    title: webcam.title,
    image: webcam.images!.current!.preview!,
    updated: webcam.lastUpdatedOn,
    location: webcam.location,
    url: webcam.urls?.detail,
    player: webcam.player?.day,
    credit: 'Webcams provided by windy.com',
  };
  if (options.json) return facts;
  const image = await setup.http.fetchUserUrl(facts.image, {
    param: 'image',
    timeoutMs: 10_000,
    signal: call.signal,
    maxBytes: 8 * 1024 * 1024,
    accept: 'image/*',
  });
  const type = image.contentType?.startsWith('image/') ? image.contentType.split(';')[0] : 'image/jpeg';
  return new FileOutput(image.body, type.split('/')[1] === 'png' ? 'png' : 'jpg', type);
});

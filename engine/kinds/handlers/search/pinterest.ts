import { notFound, upstreamError } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/pinterest: pins for a query from the JSON Pinterest's own web app loads
 * (BaseSearchResource; no key). Each pin lists its image in several sizes under
 * `images` ("236x", "474x", "736x", "orig"); promoted pins (ads) and entries without an
 * image (story and board modules) are left out.
 */
interface Image {
  url?: string;
  width?: number;
  height?: number;
}
interface Pin {
  id?: string;
  type?: string;
  title?: string;
  grid_title?: string;
  description?: string;
  link?: string | null;
  is_promoted?: boolean;
  dominant_color?: string;
  images?: Record<string, Image | undefined>;
  videos?: { video_list?: Record<string, { url?: string } | undefined> } | null;
  pinner?: { username?: string; full_name?: string };
  board?: { name?: string; url?: string };
}
interface Answer {
  resource_response?: { status?: string; data?: { results?: Pin[] } | null };
}

const SITE = 'https://www.pinterest.com';
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

function shape(pin: Pin) {
  const images = pin.images!;
  const orig = images.orig!;
  const video = pin.videos?.video_list;
  return {
    id: pin.id!,
    title: text(pin.title) ?? text(pin.grid_title),
    description: text(pin.description),
    image: orig.url!,
    width: orig.width ?? null,
    height: orig.height ?? null,
    thumbnail: images['236x']?.url ?? images['474x']?.url ?? orig.url!,
    video: video?.V_720P?.url ?? video?.V_HLSV4?.url ?? null,
    url: `${SITE}/pin/${pin.id}/`,
    source: text(pin.link),
    pinner: pin.pinner?.username ? { username: pin.pinner.username, name: text(pin.pinner.full_name) } : null,
    board: text(pin.board?.name),
    dominant_color: text(pin.dominant_color),
  };
}

export default handler<Params['search/pinterest']>(async ({ params, call, setup }) => {
  const answer = await setup.upstreams.call<Answer>('pinterest', {
    path: '/resource/BaseSearchResource/get/',
    query: {
      source_url: `/search/pins/?q=${encodeURIComponent(params.query)}`,
      data: JSON.stringify({ options: { query: params.query, scope: 'pins', page_size: Math.max(params.limit, 25) }, context: {} }),
    },
    signal: call.signal,
  });
  const results = answer?.resource_response?.data?.results;
  if (!Array.isArray(results)) throw upstreamError('pinterest', 'no results list in the answer (its format changed)');
  const pins = results.filter((p) => p && typeof p.id === 'string' && !p.is_promoted && typeof p.images?.orig?.url === 'string').map(shape);
  if (!pins.length) throw notFound('No Pinterest pin matches');
  return pins.slice(0, params.limit);
});

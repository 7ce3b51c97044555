import he from 'he';
import type { AdapterSetup, Call } from '../../../contract/call.js';
import { upstreamError } from '../../../core/errors.js';
import { compileMapping, type Expression, type Mapping } from '../../../core/mapping.js';
import { mediaService } from '../../../features/media/service.js';
import { isoSeconds, lengthFields, videosFromYtdlp, type YoutubeVideo } from '../../../features/media/youtube-search.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/youtube (and yts): YouTube videos for a query, from the YouTube Data API
 * when YOUTUBE_API_KEY is set (search.list: official, but 100 quota units a call and no
 * durations), else from yt-dlp's `ytsearchN:` (no key; durations and view counts, as
 * YouTube's own results page shows them). The manifest's `requires.anyOf` lists the
 * endpoint unavailable only when neither is there. The Data API's answer goes through
 * the named mapping the manifest passes (`options.dataApi`); it sends titles
 * HTML-escaped (`World&#39;s best`), and they are decoded, as yt-dlp's already are.
 * search.list has no lengths or view counts: one videos.list call for all the hits
 * (1 quota unit, against search's 100) adds them, so both sources answer the same fields.
 */
interface VideoList {
  items?: { id?: string; contentDetails?: { duration?: string }; statistics?: { viewCount?: string } }[];
}
const compiled = new WeakMap<object, Mapping>();

const decode = (value: unknown) => (typeof value === 'string' ? he.decode(value) : value);

async function fromDataApi(setup: AdapterSetup, call: Call, toVideos: Mapping, q: string, limit: number): Promise<YoutubeVideo[]> {
  const answer = await setup.upstreams.call<{ kind?: string }>('youtube-data', {
    path: '/search',
    query: { part: 'snippet', type: 'video', q, maxResults: limit, safeSearch: 'moderate' },
    limitMs: setup.endpoint.limits.timeoutMs,
    signal: call.signal,
  });
  if (answer?.kind !== 'youtube#searchListResponse') throw upstreamError('youtube-data', 'unexpected response shape');
  const videos = (toVideos(answer) ?? []) as YoutubeVideo[];
  return (await withDetails(setup, call, videos)).map((v) => ({
    ...v,
    title: decode(v.title) as string,
    description: decode(v.description) as string,
    author: { ...v.author, name: decode(v.author?.name) as string },
  }));
}

/** Lengths (`timestamp`, `seconds`) and `views` from videos.list; without them when that call fails, since the search itself answered. */
async function withDetails(setup: AdapterSetup, call: Call, videos: YoutubeVideo[]): Promise<YoutubeVideo[]> {
  if (!videos.length) return videos;
  let details: VideoList;
  try {
    details = await setup.upstreams.call<VideoList>('youtube-data', {
      path: '/videos',
      query: { part: 'contentDetails,statistics', id: videos.map((v) => v.videoId).join(',') },
      limitMs: setup.endpoint.limits.timeoutMs,
      signal: call.signal,
    });
  } catch (error) {
    if (call.signal.aborted) throw error;
    return videos.map((v) => ({ ...v, ...lengthFields(undefined, v.live) }));
  }
  const byId = new Map((details?.items ?? []).map((item) => [item.id, item]));
  return videos.map((v) => {
    const item = byId.get(v.videoId);
    const views = Number(item?.statistics?.viewCount ?? NaN);
    return { ...v, ...lengthFields(isoSeconds(item?.contentDetails?.duration), v.live), ...(Number.isSafeInteger(views) && { views }) };
  });
}

const UNITS: [string, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
];

/** How long ago, as YouTube and the yt-search package say it ("3 years ago"); undefined for an unknown or future time. */
export function ago(published: string | undefined, now = Date.now()): string | undefined {
  const seconds = published ? (now - Date.parse(published)) / 1000 : NaN;
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  for (const [unit, size] of UNITS) {
    const n = Math.floor(seconds / size);
    if (n >= 1) return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  }
  return `${Math.floor(seconds)} second${Math.floor(seconds) === 1 ? '' : 's'} ago`;
}

/**
 * The names the genre's clients read beside ours, as the yt-search package (whose JSON the genre's
 * API answered) names them: duration {seconds, timestamp} and ago (from the publish time, when known).
 */
const forGenre = (videos: YoutubeVideo[]) =>
  videos.map((v) => {
    const when = ago(v.published);
    return {
      ...v,
      ...(v.timestamp !== undefined && { duration: { seconds: v.seconds ?? null, timestamp: v.timestamp } }),
      ...(when && { ago: when }),
    };
  });

export default handler<Params['search/youtube']>(async ({ params, options, call, setup }) => {
  if (!setup.upstreams.unavailable('youtube-data')) {
    let toVideos = compiled.get(options);
    if (!toVideos) compiled.set(options, (toVideos = compileMapping(options.dataApi as Expression)));
    return forGenre(await fromDataApi(setup, call, toVideos, params.q, params.limit));
  }
  return forGenre(videosFromYtdlp(await mediaService(setup).youtubeSearch(params.q, params.limit, call.signal)));
});

import he from 'he';
import type { AdapterSetup, Call } from '../../adapters/types.js';
import { upstreamError } from '../../errors.js';
import { compileMapping, type Expression, type Mapping } from '../../mapping.js';
import { mediaService } from '../../media/service.js';
import { videosFromYtdlp, type YoutubeVideo } from '../../media/youtube-search.js';
import { handler } from '../types.js';

/**
 * /api/search/youtube (and yts): YouTube videos for a query, from the YouTube Data API
 * when YOUTUBE_API_KEY is set (search.list: official, but 100 quota units a call and no
 * durations), else from yt-dlp's `ytsearchN:` (no key; durations and view counts, as
 * YouTube's own results page shows them). The manifest's `requires.anyOf` lists the
 * endpoint unavailable only when neither is there. The Data API's answer goes through
 * the named mapping the manifest passes (`options.dataApi`); it sends titles
 * HTML-escaped (`World&#39;s best`), and they are decoded, as yt-dlp's already are.
 */
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
  return videos.map((v) => ({
    ...v,
    title: decode(v.title) as string,
    description: decode(v.description) as string,
    author: { ...v.author, name: decode(v.author?.name) as string },
  }));
}

export default handler<{ q: string; limit: number }>(async ({ params, options, call, setup }) => {
  if (!setup.upstreams.unavailable('youtube-data')) {
    let toVideos = compiled.get(options);
    if (!toVideos) compiled.set(options, (toVideos = compileMapping(options.dataApi as Expression)));
    return fromDataApi(setup, call, toVideos, params.q, params.limit);
  }
  return videosFromYtdlp(await mediaService(setup).youtubeSearch(params.q, params.limit, call.signal));
});

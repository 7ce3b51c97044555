import { notFound } from '../../../core/errors.js';
import { spotifySearch } from '../../../features/spotify/token.js';
import { track, type SpotifyTrack } from '../../../features/spotify/shapes.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/spotify: tracks from the Spotify Web API's search (client-credentials token). Each
 * also carries its url as `link`, which the genre's mouricedevs/Gifted reads (results[].link).
 */
export default handler<Params['search/spotify']>(async ({ params, call, setup }) => {
  const items = (await spotifySearch<SpotifyTrack>(setup, 'track', params.query, params.limit, call.signal)).map((t) => {
    const shaped = track(t);
    return { ...shaped, link: shaped.url };
  });
  if (!items.length) throw notFound('No Spotify track matches');
  return items;
});

import { notFound, upstreamError } from '../../errors.js';
import { spotifyApi } from '../../spotify/token.js';
import { track, type SpotifyTrack } from '../../spotify/shapes.js';
import { handler } from '../types.js';

/** /api/search/spotify: tracks from the Spotify Web API's search (client-credentials token). */
export default handler<{ query: string; limit: number }>(async ({ params, call, setup }) => {
  const answer = await spotifyApi<{ tracks?: { items?: (SpotifyTrack | null)[] } }>(
    setup, '/search', { q: params.query, type: 'track', limit: params.limit }, call.signal);
  if (!Array.isArray(answer?.tracks?.items)) throw upstreamError('spotify-api', 'no tracks list in the answer');
  const items = answer.tracks.items.filter((t): t is SpotifyTrack => !!t?.id).map(track);
  if (!items.length) throw notFound('No Spotify track matches');
  return items;
});

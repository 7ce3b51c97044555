import { notFound, upstreamError } from '../../../core/errors.js';
import { spotifyApi, spotifySearch } from '../../../features/spotify/token.js';
import { playlist, track, type SpotifyPlaylist, type SpotifyTrack } from '../../../features/spotify/shapes.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/search/spotifyplaylist: a playlist link (or id) answers that playlist with its
 * tracks; other text searches playlists. Spotify's search lists may hold null entries
 * (playlists it withholds): they are dropped.
 */
const LINK = /^(?:https?:\/\/open\.spotify\.com\/(?:intl-[a-z-]+\/)?playlist\/|spotify:playlist:)?([A-Za-z0-9]{22})(?:[/?#].*)?$/;

export default handler<Params['search/spotifyplaylist']>(async ({ params, call, setup }) => {
  const id = LINK.exec(params.query.trim())?.[1];
  if (id) {
    const p = await spotifyApi<SpotifyPlaylist>(setup, `/playlists/${id}`, {}, call.signal);
    if (!p?.id) throw upstreamError('spotify-api', 'no playlist in the answer');
    const tracks = (p.tracks?.items ?? [])
      .map((i) => i.track)
      .filter((t): t is SpotifyTrack => !!t?.id)
      .slice(0, params.limit)
      .map(track);
    return { ...playlist(p), tracks };
  }
  const items = (await spotifySearch<SpotifyPlaylist>(setup, 'playlist', params.query, params.limit, call.signal)).map(playlist);
  if (!items.length) throw notFound('No Spotify playlist matches');
  return items;
});

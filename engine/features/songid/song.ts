/**
 * A song identified from audio, as /api/search/shazam answers it: the same fields
 * whichever service matched it, `null` where that service does not know a fact
 * (AcoustID has no label or release date in its lookup; AudD no MusicBrainz ids).
 */
export interface Song {
  title: string;
  /** Display form of the credited artists ("A feat. B"). */
  artist: string;
  artists: string[];
  album: string | null;
  release_date: string | null;
  label: string | null;
  /** Where in the song the sample sits (`mm:ss`, AudD only). */
  timecode: string | null;
  /** Length of the recording in seconds, when known. */
  duration: number | null;
  /** How sure the service is, 0–1 (AcoustID's fingerprint score; AudD gives none). */
  score: number | null;
  /** The service that matched: `audd` or `acoustid`. */
  engine: 'audd' | 'acoustid';
  acoustid_id: string | null;
  musicbrainz_id: string | null;
  /** A page of the song (song.link for AudD, MusicBrainz's recording page for AcoustID). */
  url: string | null;
  /** Cover art, when the service hands one out. */
  thumbnail: string | null;
  links: Record<string, string>;
  /** Genres, when the service names them (AudD, through Apple Music); empty otherwise. */
  genres: string[];
}

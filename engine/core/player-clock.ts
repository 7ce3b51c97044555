/**
 * Seconds as a media player shows them: 225 → `3:45`, 3723 → `1:02:03`. Whole seconds
 * are floored, as players do (59.7 s has not reached 1:00). One formatter for every
 * duration text Manifold writes (YouTube search timestamps, Spotify track lengths, the
 * music-card stickers), so the same length reads the same everywhere.
 */
export function playerClock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

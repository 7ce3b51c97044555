/**
 * The `quality` param of the downloaders, read the way clients of the genre write it:
 * an audio bit rate as `128`, `128k` or `128kbps`, a video height as `720` or `720p`.
 * The manifests' param schemas accept those spellings (a pattern per downloader); this
 * turns one into what ffmpeg is asked for and into the canonical label (`128kbps`,
 * `720p`) that results and the media cache use, so every spelling is the same job.
 */

/** MP3 bit rates the downloaders make, kbps. */
export const AUDIO_KBPS = [64, 96, 128, 160, 192, 256, 320] as const;
/** Largest MP4 heights the downloaders make, pixels. */
export const VIDEO_HEIGHTS = [144, 240, 360, 480, 720, 1080] as const;

export type QualityTarget = { kind: 'audio'; kbps: number } | { kind: 'video'; height: number };

const SPELLING = /^(\d{2,4})\s*(k|kbps|p)?$/i;

/**
 * The target a quality stands for, or undefined when it is none of them. A bare number is
 * unambiguous: no bit rate above is also a height.
 */
export function parseQuality(raw: string): QualityTarget | undefined {
  const match = SPELLING.exec(raw.trim());
  if (!match) return undefined;
  const n = Number(match[1]);
  const unit = match[2]?.toLowerCase();
  const audio = (AUDIO_KBPS as readonly number[]).includes(n);
  const video = (VIDEO_HEIGHTS as readonly number[]).includes(n);
  if (audio && unit !== 'p') return { kind: 'audio', kbps: n };
  if (video && (unit === undefined || unit === 'p')) return { kind: 'video', height: n };
  return undefined;
}

/** The canonical label: `128kbps`, `720p`. */
export const qualityLabel = (target: QualityTarget) => (target.kind === 'audio' ? `${target.kbps}kbps` : `${target.height}p`);

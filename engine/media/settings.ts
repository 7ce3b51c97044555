import type { Config } from '../config.js';

/**
 * Media limits and tool paths, read once from the environment. Every value has a
 * default that suits a small self-hosted box (2 cores, a few GB of disk).
 */
export interface MediaSettings {
  /** yt-dlp binary: YTDLP_PATH (a newer release than Debian's) or `yt-dlp` on PATH. */
  ytdlp: string;
  ffmpeg: string;
  ffprobe: string;
  /** Longest source accepted, in seconds (MEDIA_MAX_DURATION_S). */
  maxDurationS: number;
  /** Largest source download or produced file, in bytes (MEDIA_MAX_BYTES). */
  maxBytes: number;
  /** Media jobs running at once across all downloaders (MEDIA_CONCURRENCY). */
  concurrency: number;
  /** Jobs allowed to wait for a slot; beyond it 503 overloaded (MEDIA_QUEUE). */
  queue: number;
  /** A job (resolve + fetch + convert, or a whole stream) is killed after this (MEDIA_JOB_TIMEOUT_MS). */
  jobTimeoutMs: number;
  /** How long a produced file stays downloadable (MEDIA_FILE_TTL_S). */
  fileTtlS: number;
  /** Total bytes of produced files kept; the oldest go first when over it (MEDIA_DISK_QUOTA_BYTES). */
  diskQuotaBytes: number;
}

const int = (env: Readonly<Record<string, string>>, name: string, fallback: number, min = 1): number => {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return n;
};

export function mediaSettings(config: Config): MediaSettings {
  const env = config.env;
  return Object.freeze({
    ytdlp: env.YTDLP_PATH ?? 'yt-dlp',
    ffmpeg: env.FFMPEG_PATH ?? 'ffmpeg',
    ffprobe: env.FFPROBE_PATH ?? 'ffprobe',
    maxDurationS: int(env, 'MEDIA_MAX_DURATION_S', 2 * 3600),
    maxBytes: int(env, 'MEDIA_MAX_BYTES', 1024 * 1024 * 1024),
    concurrency: int(env, 'MEDIA_CONCURRENCY', 2),
    queue: int(env, 'MEDIA_QUEUE', 8, 0),
    jobTimeoutMs: int(env, 'MEDIA_JOB_TIMEOUT_MS', 15 * 60 * 1000),
    fileTtlS: int(env, 'MEDIA_FILE_TTL_S', 3600),
    diskQuotaBytes: int(env, 'MEDIA_DISK_QUOTA_BYTES', 5 * 1024 * 1024 * 1024),
  });
}

import { parse as parseShellWords } from 'shell-quote';
import type { Config } from '../../platform/config.js';
import { nonNegativeInt, positiveInt } from '../../platform/settings/int.js';
import type { HostOptions } from './ytdlp.js';

/**
 * Media limits and tool paths, read once from the environment. Every value has a
 * default that suits a small self-hosted box (2 cores, a few GB of disk).
 */
export interface MediaSettings {
  /** yt-dlp binary: YTDLP_PATH (a newer release than Debian's) or `yt-dlp` on PATH. */
  ytdlp: string;
  /** What the host adds to every yt-dlp run: YTDLP_JS_RUNTIMES, YTDLP_COOKIES_FILE and YTDLP_EXTRA_ARGS. */
  ytdlpHost: HostOptions;
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

export function mediaSettings(config: Config): MediaSettings {
  const env = config.env;
  return Object.freeze({
    ytdlp: env.YTDLP_PATH ?? 'yt-dlp',
    ytdlpHost: Object.freeze({
      cookiesFile: env.YTDLP_COOKIES_FILE || undefined,
      extraArgs: extraArgs(env.YTDLP_EXTRA_ARGS),
      jsRuntimes: jsRuntimes(env.YTDLP_JS_RUNTIMES),
    }),
    ffmpeg: env.FFMPEG_PATH ?? 'ffmpeg',
    ffprobe: env.FFPROBE_PATH ?? 'ffprobe',
    maxDurationS: positiveInt(env, 'MEDIA_MAX_DURATION_S', 2 * 3600),
    maxBytes: positiveInt(env, 'MEDIA_MAX_BYTES', 1024 * 1024 * 1024),
    concurrency: positiveInt(env, 'MEDIA_CONCURRENCY', 2),
    queue: nonNegativeInt(env, 'MEDIA_QUEUE', 8),
    jobTimeoutMs: positiveInt(env, 'MEDIA_JOB_TIMEOUT_MS', 15 * 60 * 1000),
    fileTtlS: positiveInt(env, 'MEDIA_FILE_TTL_S', 3600),
    diskQuotaBytes: positiveInt(env, 'MEDIA_DISK_QUOTA_BYTES', 5 * 1024 * 1024 * 1024),
  });
}

/**
 * YTDLP_EXTRA_ARGS split into words as a shell would (quotes, escapes), never run by
 * one: an operator string such as `--extractor-args "youtube:player_client=web"`.
 * Shell operators or globs in it are a configuration error, not something to guess at.
 */
export function extraArgs(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  const words = parseShellWords(raw);
  const bad = words.find((w) => typeof w !== 'string');
  if (bad !== undefined) throw new Error(`YTDLP_EXTRA_ARGS must be plain arguments (no shell operators, globs or comments): ${JSON.stringify(bad)}`);
  return words as string[];
}

/** The runtimes yt-dlp's `--js-runtimes` knows; each may name its binary (`node:/usr/local/bin/node`). */
const JS_RUNTIME = /^(deno|node|quickjs|bun)(:\S+)?$/;

/**
 * YTDLP_JS_RUNTIMES, comma-separated (`node`, `deno,node:/opt/node/bin/node`): one
 * `--js-runtimes` each. Unset passes none (yt-dlp then uses deno if it finds it). A name
 * yt-dlp does not know is a configuration error at boot, not a failure on every download.
 */
export function jsRuntimes(raw: string | undefined): string[] {
  const runtimes = (raw ?? '')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const bad = runtimes.find((r) => !JS_RUNTIME.test(r));
  if (bad !== undefined) throw new Error(`YTDLP_JS_RUNTIMES: "${bad}" is not one of deno, node, quickjs, bun (each optionally :PATH), comma-separated`);
  return runtimes;
}

import fs from 'node:fs';
import path from 'node:path';
import { upstreamError } from '../../core/errors.js';
import { captureTool } from './child.js';
import { ytdlpFailure } from './ytdlp-errors.js';

/**
 * yt-dlp: argument building, metadata resolution and failure mapping. Arguments
 * are arrays; user input only ever appears after `--`. `--ignore-config` keeps a
 * stray yt-dlp config file on the host from changing what runs.
 */

/** The fields of yt-dlp's `--dump-single-json` output that Manifold reads (upstream-formats.md §8). */
export interface YtFormat {
  format_id: string;
  format_note?: string | null;
  ext?: string | null;
  protocol?: string | null;
  url?: string;
  acodec?: string | null;
  vcodec?: string | null;
  width?: number | null;
  height?: number | null;
  abr?: number | null;
  tbr?: number | null;
  filesize?: number | null;
  filesize_approx?: number | null;
  container?: string | null;
  /** The extractor's ranking among formats; higher is better, absent is 0. */
  preference?: number | null;
}

export interface YtInfo extends Partial<YtFormat> {
  id: string;
  title?: string;
  _type?: string;
  duration?: number | null;
  thumbnail?: string | null;
  thumbnails?: { url: string; width?: number | null; height?: number | null }[];
  description?: string | null;
  uploader?: string | null;
  uploader_id?: string | null;
  channel?: string | null;
  view_count?: number | null;
  like_count?: number | null;
  comment_count?: number | null;
  repost_count?: number | null;
  upload_date?: string | null;
  webpage_url?: string;
  extractor_key?: string;
  is_live?: boolean | null;
  formats?: YtFormat[];
  entries?: YtInfo[];
  [other: string]: unknown;
}

/**
 * `--downloader native`: yt-dlp's own downloaders for every protocol, so all its
 * traffic goes through `--proxy` (an external downloader such as ffmpeg would not).
 */
const COMMON = ['--ignore-config', '--no-cache-dir', '--no-playlist', '--no-warnings', '--no-progress', '--socket-timeout', '20', '--downloader', 'native'];

const proxyArgs = (proxy?: string) => (proxy ? ['--proxy', proxy] : []);

/**
 * What the host adds to every run: YTDLP_COOKIES_FILE (`--cookies`, a cookies.txt of a
 * logged-in account, for sites that ask for a login or a bot check) and YTDLP_EXTRA_ARGS
 * (e.g. `--extractor-args "youtube:po_token=…"`), split like a shell would, never through
 * one. They come from the host's environment, never from a request, and go before `--`.
 */
export interface HostOptions {
  cookiesFile?: string;
  extraArgs?: string[];
  /**
   * YTDLP_JS_RUNTIMES: JavaScript runtimes yt-dlp may run YouTube's player code with
   * (`--js-runtimes`, yt-dlp 2025.11.12 and later; only deno is on by default). The image
   * sets `node`, the runtime Manifold itself runs on. Before the extra arguments, so a
   * host's `--no-js-runtimes` there still wins.
   */
  jsRuntimes?: string[];
}
const hostArgs = (host?: HostOptions) => [
  ...(host?.jsRuntimes ?? []).flatMap((runtime) => ['--js-runtimes', runtime]),
  ...(host?.cookiesFile ? ['--cookies', host.cookiesFile] : []),
  ...(host?.extraArgs ?? []),
];

/** Resolve a page URL to its metadata and formats, without downloading. */
export const infoArgs = (url: string, options: { proxy?: string; host?: HostOptions } = {}): string[] => [
  ...COMMON,
  ...proxyArgs(options.proxy),
  ...hostArgs(options.host),
  '--dump-single-json',
  '--',
  url,
];

/** The first `count` YouTube search hits as flat entries, without opening any (`ytsearchN:`). */
export const searchArgs = (query: string, options: { proxy?: string; host?: HostOptions; count?: number } = {}): string[] => [
  ...COMMON,
  ...proxyArgs(options.proxy),
  ...hostArgs(options.host),
  '--dump-single-json',
  '--flat-playlist',
  '--',
  `ytsearch${options.count ?? 1}:${query}`,
];

/**
 * Fetch one format of an already-resolved item to `output` (a file, or `-` for
 * stdout). `--load-info-json` reuses the first resolution instead of extracting
 * the page a second time. No `--max-filesize`: yt-dlp skips an oversized file with
 * exit code 0 and no bytes, so the caller enforces the size limit (a clear 400).
 */
export const fetchArgs = (infoFile: string, formatId: string, options: { proxy?: string; output?: string; host?: HostOptions } = {}): string[] => [
  ...COMMON,
  ...proxyArgs(options.proxy),
  ...hostArgs(options.host),
  '--quiet',
  '--load-info-json',
  infoFile,
  '--format',
  formatId,
  '--no-part',
  '--output',
  options.output ?? '-',
];

/** Run yt-dlp with `args` and parse its single JSON document; `refusal` says whether the egress proxy refused a connection. */
export async function runInfo(bin: string, args: string[], signal: AbortSignal, refusal: () => string | undefined = () => undefined): Promise<YtInfo> {
  let out: string;
  try {
    out = await captureTool(bin, args, { signal, maxBytes: 32 * 1024 * 1024 });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw ytdlpFailure(error, refusal());
  }
  try {
    return JSON.parse(out) as YtInfo;
  } catch {
    throw upstreamError('yt-dlp', 'it printed no usable metadata');
  }
}

/** Write the resolved info where `--load-info-json` can read it; returns the path. */
export async function writeInfoFile(dir: string, jobId: string, info: YtInfo): Promise<string> {
  const file = path.join(dir, `${jobId}.info.json`);
  await fs.promises.writeFile(file, JSON.stringify(info));
  return file;
}

import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { AdapterSetup, Call } from '../../contract/call.js';
import { invalidParameter, notFound, upstreamError } from '../../core/errors.js';
import { captureTool } from '../media/child.js';
import { ffprobeArgs, parseProbe, type Probe } from '../media/ffmpeg-args.js';
import { mediaSettings } from '../media/settings.js';
import { onPath } from '../../core/binaries.js';
import { abortable } from '../../core/abortable.js';

/**
 * A client's audio or video file, named by a URL param: fetched through the SSRF-guarded
 * client into a private temp directory (never piped: an MP4 with its index at the end is
 * not readable from a pipe), then probed with ffprobe so a picture or a file over the
 * duration limit is a 400 before any real work starts. A web page (a YouTube or TikTok
 * link, a page with an <audio> tag) goes through the downloaders' media pipeline
 * (yt-dlp behind its SSRF-checked egress proxy, slots, limits and file cache) for its
 * audio, when yt-dlp is installed.
 */
export interface AudioSource {
  /** The downloaded file. */
  file: string;
  /** The private directory holding it; outputs go here too. Removed by `dispose`. */
  dir: string;
  probe: Probe;
  /** Seconds (from the container). */
  duration: number;
  /** Channels of the first audio stream. */
  channels: number;
  dispose(): Promise<void>;
}

/** Largest source file fetched for the audio tools, in bytes. */
export const AUDIO_MAX_BYTES = 100 * 1024 * 1024;

export interface SourceOptions {
  /** The param holding the URL (named in 400s). */
  param?: string;
  /** Longest source accepted, in seconds. */
  maxDurationS: number;
}

/** A private directory under the file store's temp dir, for one job's intermediate files. */
export async function workDir(setup: Pick<AdapterSetup, 'files'>, prefix: string): Promise<{ dir: string; dispose(): Promise<void> }> {
  await fs.promises.mkdir(setup.files.tempDir, { recursive: true });
  const dir = await fs.promises.mkdtemp(path.join(setup.files.tempDir, `${prefix}-`));
  return { dir, dispose: () => fs.promises.rm(dir, { recursive: true, force: true }) };
}

export async function openAudioSource(setup: AdapterSetup, call: Call, options: SourceOptions): Promise<AudioSource> {
  const param = options.param ?? 'url';
  const { dir, dispose } = await workDir(setup, 'audio');
  try {
    const fetched = await setup.http.streamUserUrl(String(call.params[param]), {
      param,
      timeoutMs: 30_000,
      signal: call.signal,
      maxBytes: AUDIO_MAX_BYTES,
      accept: 'audio/*, video/*;q=0.9, */*;q=0.5',
    });
    const file = path.join(dir, 'source');
    const page = /^text\/html\b/i.test(fetched.contentType ?? '');
    if (page) {
      fetched.body.destroy();
      if (!onPath('yt-dlp', setup.config.env)) throw invalidParameter(param, 'is a web page, not an audio or video file (pass the link of the file itself)');
      await pageAudio(setup, call, String(call.params[param]), file);
    } else {
      await pipeline(fetched.body, fs.createWriteStream(file));
    }
    const settings = mediaSettings(setup.config);
    let json: string;
    try {
      json = await captureTool(settings.ffprobe, ffprobeArgs(file), { signal: call.signal, maxBytes: 1024 * 1024 });
    } catch (error) {
      if (call.signal.aborted) throw call.signal.reason;
      throw invalidParameter(param, 'is not a readable audio or video file');
    }
    const probe = parseProbe(json);
    if (!probe.audio) throw invalidParameter(param, 'has no audio track');
    const duration = probe.duration ?? 0;
    if (duration > options.maxDurationS) throw invalidParameter(param, `the audio is longer than the limit of ${options.maxDurationS} s`);
    // the media seconds this call processes, as ffprobe reads them (a page's audio was counted by the download that made it)
    if (!page && duration > 0) call.meter?.({ mediaSeconds: duration });
    return { file, dir, probe, duration, channels: audioChannels(json), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The audio of a page, as the downloaders make it (192 kbps MP3, cached by the media pipeline), copied to `file`. */
async function pageAudio(setup: AdapterSetup, call: Call, url: string, file: string): Promise<void> {
  const { mediaService } = await import('../media/service.js');
  // the media job is not the caller's: it finishes and is cached for the next caller, as downloads are
  const produced = await abortable(
    mediaService(setup).link(url, { format: 'mp3', quality: '192kbps', target: { kind: 'audio', kbps: 192 } }, undefined, call),
    call.signal,
  );
  const stored = await setup.files.open(path.posix.basename(new URL(produced.download_url).pathname));
  if (!stored) throw notFound("The page's audio expired from the media cache; try again");
  await pipeline(await stored.read(), fs.createWriteStream(file), { signal: call.signal });
}

/** Channel count of the first audio stream in ffprobe's JSON (parseProbe keeps only what the downloaders need). */
function audioChannels(json: string): number {
  const streams = (JSON.parse(json) as { streams?: { codec_type?: string; channels?: number }[] }).streams ?? [];
  return streams.find((s) => s.codec_type === 'audio')?.channels ?? 0;
}

/** Re-raise a failed child as the client should see it: the abort reason when the call was aborted. */
export function toolError(signal: AbortSignal, tool: string, why: string, error: unknown): never {
  if (signal.aborted) throw signal.reason;
  throw upstreamError(tool, why, error);
}

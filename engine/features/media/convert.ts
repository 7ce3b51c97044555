import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, invalidParameter, upstreamError } from '../../core/errors.js';
import { capBytes } from '../../platform/http/byte-limit.js';
import { captureTool, startTool, ToolFailed, type Tool } from './child.js';
import { ffmpegArgs, ffprobeArgs, parseProbe, type Probe, type Profile } from './ffmpeg-args.js';
import { readFfmpegProgress } from './ffmpeg-progress.js';
import { lines, pipeable, type Choice, type Target } from './formats.js';
import type { MediaSettings } from './settings.js';
import { fetchArgs, type YtFormat, type YtInfo } from './ytdlp.js';
import { ytdlpFailure } from './ytdlp-errors.js';

/**
 * One conversion: yt-dlp fetches each chosen format, ffmpeg turns it into the
 * profile's output. An input ffmpeg can read from a pipe goes straight into one of
 * its file descriptors (3, 4); any other input, or one of unknown length (the
 * duration limit needs ffprobe), is spooled to the job's directory first. The
 * output is a file (link mode) or ffmpeg's stdout (stream mode). Any failure or
 * abort kills every process of the job.
 */
export interface ConversionJob {
  settings: MediaSettings;
  /** Private directory of this job, removed by the caller afterwards. */
  dir: string;
  info: YtInfo;
  /** The info as a file, for `yt-dlp --load-info-json`. */
  infoFile: string;
  choice: Choice;
  target: Target;
  signal: AbortSignal;
  /** The egress proxy for this job's yt-dlp runs, and what it refused. */
  proxy?: { url: string; refusal(): string | undefined };
  /** Told how far ffmpeg's output is, 0–1, from its `-progress` report (ffmpeg-progress.ts). */
  progress?: (fraction: number) => void;
}

export interface Conversion {
  /** ffmpeg's stdout in stream mode (size-capped). */
  stdout?: Readable;
  /** Stream mode: resolves when the first byte is out, rejects if the job fails before it. */
  firstByte: Promise<void>;
  /** Source duration in seconds from ffprobe, when an input was spooled and probed. */
  probedDuration?: number;
  /** Settles when every process of the job has exited (rejects with the error a client should see). */
  done: Promise<void>;
}

const tooLarge = (max: number) => () => invalidParameter('url', `the media is larger than the limit of ${max} bytes`);

/** A size cap that also reports the first chunk passing through (stream mode answers only then). */
function meter(maxBytes: number, tooBig: () => Error, onFirst: () => void): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (size === 0) onFirst();
      size += chunk.length;
      if (size > maxBytes) callback(tooBig());
      else callback(null, chunk);
    },
  });
}

export const tooLong = (max: number) => invalidParameter('url', `the media is longer than the limit of ${max} s`);

/** The error worth reporting among several failures of one job (the cause, not the EPIPE it caused). */
function mainError(errors: unknown[], job: ConversionJob): unknown {
  if (job.signal.aborted) return job.signal.reason;
  const api = errors.find((e) => e instanceof ApiError);
  if (api) return api;
  const fetcher = errors.find((e) => e instanceof ToolFailed && e.tool === job.settings.ytdlp);
  if (fetcher) return ytdlpFailure(fetcher, job.proxy?.refusal());
  if (errors.some((e) => e instanceof ToolFailed)) return upstreamError('ffmpeg', 'the media could not be converted');
  return errors[0];
}

const isH264 = (codec?: string | null) => /^(avc|h264)/.test(codec ?? '');
const isAac = (codec?: string | null) => /^(mp4a|aac)/.test(codec ?? '');

/** Copy streams that are already MP4-ready and small enough; transcode the rest. */
function profileFor(target: Target, inputs: YtFormat[], probes: (Probe | undefined)[]): Profile {
  if (target.kind === 'audio') return target;
  const videoCodec = probes[0]?.video?.codec ?? inputs[0].vcodec;
  const height = probes[0]?.video?.lines ?? (lines(inputs[0]) || undefined);
  const audioIndex = inputs.length > 1 ? 1 : 0;
  const audioCodec = probes[audioIndex]?.audio?.codec ?? inputs[audioIndex].acodec;
  const tooTall = height !== undefined && height > target.height;
  return {
    kind: 'video',
    height: target.height,
    copyVideo: isH264(videoCodec) && height !== undefined && !tooTall,
    copyAudio: isAac(audioCodec),
    scale: tooTall || height === undefined,
  };
}

/** Wait for a spooling yt-dlp, killing it once its file passes `maxBytes`. */
async function spoolWithCap(tool: Tool, file: string, maxBytes: number): Promise<void> {
  let over = false;
  const watch = setInterval(() => {
    fs.stat(file, (error, stat) => {
      if (!error && stat.size > maxBytes) {
        over = true;
        tool.kill();
      }
    });
  }, 200);
  try {
    await tool.exited;
  } catch (error) {
    throw over ? tooLarge(maxBytes)() : error;
  } finally {
    clearInterval(watch);
  }
  const size = await fs.promises.stat(file).then(
    (s) => s.size,
    () => undefined,
  );
  if (size === undefined) throw upstreamError('yt-dlp', 'it wrote no file');
  if (over || size > maxBytes) throw tooLarge(maxBytes)();
}

export async function probe(settings: MediaSettings, file: string, signal: AbortSignal): Promise<Probe> {
  try {
    return parseProbe(await captureTool(settings.ffprobe, ffprobeArgs(file), { signal }));
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw upstreamError('ffprobe', 'the downloaded media is not readable', error);
  }
}

export async function convert(job: ConversionJob, output: { file: string } | { stream: true }): Promise<Conversion> {
  const { settings, signal, choice } = job;
  const tools: Tool[] = [];
  const killAll = () => tools.forEach((t) => t.kill());
  signal.addEventListener('abort', killAll, { once: true });
  const fetcher = (format: YtFormat, file?: string) => {
    const tool = startTool(settings.ytdlp, fetchArgs(job.infoFile, format.format_id, { proxy: job.proxy?.url, output: file, host: settings.ytdlpHost }), {
      signal,
    });
    tools.push(tool);
    return tool;
  };
  const cap = () => capBytes(settings.maxBytes, tooLarge(settings.maxBytes));

  const spooled: (string | undefined)[] = [];
  const probes: (Probe | undefined)[] = [];
  try {
    // 1. spool what ffmpeg cannot read from a pipe, and check what we could not know before
    const durationKnown = typeof job.info.duration === 'number';
    for (const [i, format] of choice.inputs.entries()) {
      if (pipeable(format) && durationKnown) continue;
      const file = path.join(job.dir, `input-${i}`);
      // yt-dlp writes the file itself (the bytes never pass through this process); a watch on its size enforces the cap
      await spoolWithCap(fetcher(format, file), file, settings.maxBytes);
      spooled[i] = file;
      probes[i] = await probe(settings, file, signal);
      if ((probes[i]!.duration ?? 0) > settings.maxDurationS) throw tooLong(settings.maxDurationS);
    }
  } catch (error) {
    killAll();
    signal.removeEventListener('abort', killAll);
    throw mainError([error], job);
  }

  // 2. ffmpeg, with the spooled inputs as files and the others on fds 3, 4
  const inputs: string[] = [];
  const piped: { format: YtFormat; fd: number }[] = [];
  for (const [i, format] of choice.inputs.entries()) {
    const file = spooled[i];
    if (file) inputs.push(file);
    else {
      const fd = 3 + piped.length;
      piped.push({ format, fd });
      inputs.push(`pipe:${fd}`);
    }
  }
  const streaming = 'stream' in output;
  // the progress report gets the fd after the piped inputs
  const progressFd = job.progress ? 3 + piped.length : undefined;
  const ffmpeg = startTool(
    settings.ffmpeg,
    ffmpegArgs({
      inputs,
      profile: profileFor(job.target, choice.inputs, probes),
      output: streaming ? 'pipe:1' : output.file,
      title: job.info.title,
      maxDurationS: settings.maxDurationS,
      progress: progressFd ? `pipe:${progressFd}` : undefined,
    }),
    { signal, stdio: ['ignore', streaming ? 'pipe' : 'ignore', 'pipe', ...piped.map(() => 'pipe' as const), ...(progressFd ? ['pipe' as const] : [])] },
  );
  tools.push(ffmpeg);
  if (progressFd && job.progress) {
    const duration = typeof job.info.duration === 'number' ? job.info.duration : probes.find((p) => p?.duration)?.duration;
    readFfmpegProgress(ffmpeg.proc.stdio[progressFd] as Readable, duration, job.progress);
  }
  const tasks: Promise<unknown>[] = [ffmpeg.exited];
  for (const { format, fd } of piped) {
    const tool = fetcher(format);
    tasks.push(tool.exited, pipeline(tool.proc.stdout!, cap(), ffmpeg.proc.stdio[fd] as Writable));
  }
  let stdout: Readable | undefined;
  let first = () => {};
  const firstSeen = new Promise<void>((resolve) => (first = resolve));
  if (streaming) {
    const capped = meter(settings.maxBytes, tooLarge(settings.maxBytes), first);
    tasks.push(pipeline(ffmpeg.proc.stdout!, capped));
    stdout = capped;
  }

  // 3. the job is done when every task is; the first failure kills the rest
  const done = new Promise<void>((resolve, reject) => {
    const errors: unknown[] = [];
    let pending = tasks.length;
    for (const task of tasks) {
      task
        .catch((error: unknown) => {
          errors.push(error);
          killAll();
        })
        .finally(() => {
          if (--pending > 0) return;
          signal.removeEventListener('abort', killAll);
          if (errors.length) reject(mainError(errors, job));
          else resolve();
        });
    }
  });
  // after the first byte an error can only abort the connection: destroy the body with it
  done.catch((error: unknown) => stdout?.destroy(error instanceof Error ? error : new Error(String(error))));
  // a job that ends before any byte (an empty output) also settles the wait
  return { stdout, done, firstByte: Promise.race([firstSeen, done]), probedDuration: probes.find((p) => p?.duration)?.duration };
}

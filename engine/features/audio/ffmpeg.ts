import fs from 'node:fs';
import type { AdapterSetup, Call } from '../../contract/call.js';
import { captureTool } from '../media/child.js';
import { mediaSettings } from '../media/settings.js';
import { FileOutput, hosted, wantsBytes } from '../../contract/file-output.js';
import { toolError } from './source.js';

/**
 * ffmpeg runs of the audio tools: local files in and out only (`-protocol_whitelist
 * file,pipe`, so a container cannot make ffmpeg fetch a URL), killed with the call.
 */
export const MP3_ARGS = ['-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3'];

/** Run ffmpeg with `inputs` (local paths) and the rest of its arguments (filters, codec, output). */
export async function runFfmpeg(setup: Pick<AdapterSetup, 'config'>, signal: AbortSignal, inputs: string[], args: string[]): Promise<void> {
  const ffmpeg = mediaSettings(setup.config).ffmpeg;
  const full = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  for (const input of inputs) full.push('-protocol_whitelist', 'file,pipe', '-i', input);
  try {
    await captureTool(ffmpeg, [...full, ...args], { signal, maxBytes: 1024 * 1024 });
  } catch (error) {
    toolError(signal, 'ffmpeg', 'the audio could not be processed', error);
  }
}

/** Seconds as a generated file's answer reports them: to the hundredth. */
const reported = (seconds: number) => Math.round(seconds * 100) / 100;

/** Seconds of audio in a file (ffprobe), e.g. to report a generated file's length. */
export async function durationOf(setup: Pick<AdapterSetup, 'config'>, signal: AbortSignal, file: string): Promise<number> {
  const ffprobe = mediaSettings(setup.config).ffprobe;
  const out = await captureTool(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], { signal }).catch((error: unknown) =>
    toolError(signal, 'ffprobe', 'the audio could not be read', error),
  );
  return reported(Number(out.trim()));
}

/**
 * An MP3 made by a tool as the call's file: hosted, it answers `url` (what clients read) and
 * `download_url`, its size, its length and the facts the tool adds. The length is the
 * caller's when it knows it (`seconds`, e.g. from the WAV it encoded), else measured
 * (ffprobe), and only when the answer is hosted: the bytes answer does not say it.
 */
export async function mp3File(setup: AdapterSetup, call: Call, file: string, facts: Record<string, unknown>, seconds?: number): Promise<FileOutput> {
  const data = await fs.promises.readFile(file);
  if (wantsBytes(setup.endpoint, call.params)) return new FileOutput(data, 'mp3', 'audio/mpeg');
  const duration = seconds !== undefined ? reported(seconds) : await durationOf(setup, call.signal, file);
  const answer = { url: hosted.url, download_url: hosted.url, mime: 'audio/mpeg', size: hosted.size, duration, ...facts };
  return new FileOutput(data, 'mp3', 'audio/mpeg', { answer });
}

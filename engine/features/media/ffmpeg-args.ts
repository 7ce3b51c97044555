/**
 * ffmpeg argument arrays for the output profiles. Inputs are local files or pipes
 * only, and `-protocol_whitelist file,pipe` keeps ffmpeg from following any URL a
 * downloaded playlist or container might point at (the fetching is yt-dlp's job).
 */
export type Profile = { kind: 'audio'; kbps: number } | { kind: 'video'; height: number; copyVideo: boolean; copyAudio: boolean; scale: boolean };

export interface FfmpegPlan {
  /** Input paths or `pipe:N` (N = the child's fd). */
  inputs: string[];
  profile: Profile;
  /** A file path, or `pipe:1` to stream (fragmented MP4 for video). */
  output: string;
  title?: string;
  /** Hard stop, in seconds: a source that lied about its length cannot run forever. */
  maxDurationS: number;
  /** Where ffmpeg writes its progress report (`pipe:N`), read by ffmpeg-progress.ts; none when absent. */
  progress?: string;
}

const INPUT_OPTS = ['-protocol_whitelist', 'file,pipe'];

export function ffmpegArgs(plan: FfmpegPlan): string[] {
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  if (plan.progress) args.push('-progress', plan.progress);
  for (const input of plan.inputs) args.push(...INPUT_OPTS, '-i', input);
  args.push('-t', String(plan.maxDurationS), '-map_metadata', '-1');
  if (plan.title) args.push('-metadata', `title=${plan.title.slice(0, 200)}`);
  const { profile } = plan;
  const toPipe = plan.output.startsWith('pipe:');
  if (profile.kind === 'audio') {
    // libmp3lame with -b:a is constant bit rate: every frame at exactly this rate
    // no Xing/Info frame: a pipe cannot seek back to fill it in, and file and stream must decode alike
    args.push('-map', '0:a:0', '-vn', '-sn', '-dn', '-c:a', 'libmp3lame', '-b:a', `${profile.kbps}k`, '-write_xing', '0', '-f', 'mp3');
  } else {
    const audioInput = plan.inputs.length > 1 ? 1 : 0;
    args.push('-map', '0:v:0', '-map', `${audioInput}:a:0?`, '-sn', '-dn');
    if (profile.copyVideo) args.push('-c:v', 'copy');
    else {
      args.push('-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p');
      // bring the short side down to the target (never up), so portrait video keeps its
      // orientation; commas are escaped for the filter parser
      const h = profile.height;
      if (profile.scale) args.push('-vf', `scale=w=if(gt(iw\\,ih)\\,-2\\,min(${h}\\,iw)):h=if(gt(iw\\,ih)\\,min(${h}\\,ih)\\,-2)`);
    }
    args.push(...(profile.copyAudio ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '128k']));
    // make_zero: no edit list trims the AAC priming frame, so the fragmented stream and the
    // file decode to the same samples (a fragmented MP4 cannot carry that edit list)
    args.push('-avoid_negative_ts', 'make_zero');
    // a pipe cannot seek back to write the index: fragmented MP4 carries it up front
    args.push('-movflags', toPipe ? 'frag_keyframe+empty_moov+default_base_moof' : '+faststart', '-f', 'mp4');
  }
  args.push(plan.output);
  return args;
}

/** ffprobe of a local file: what the pipeline needs to decide copy vs transcode and enforce limits. */
export const ffprobeArgs = (file: string): string[] => [
  '-hide_banner',
  '-loglevel',
  'error',
  '-protocol_whitelist',
  'file',
  '-print_format',
  'json',
  '-show_format',
  '-show_streams',
  file,
];

export interface Probe {
  duration?: number;
  /** `lines`: the short side (see formats.ts). */
  video?: { codec: string; lines: number };
  audio?: { codec: string };
}

export function parseProbe(json: string): Probe {
  const data = JSON.parse(json) as {
    format?: { duration?: string };
    streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number; disposition?: { attached_pic?: number } }[];
  };
  const streams = data.streams ?? [];
  // cover art in an audio file is a "video" stream too; it is not a video
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(data.format?.duration);
  return {
    duration: Number.isFinite(duration) ? duration : undefined,
    video: video ? { codec: video.codec_name ?? '', lines: Math.min(video.width ?? Infinity, video.height ?? 0) } : undefined,
    audio: audio ? { codec: audio.codec_name ?? '' } : undefined,
  };
}

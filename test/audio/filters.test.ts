/**
 * The classical filters do what their descriptions claim, measured on the endpoints'
 * own fixtures: level per frequency band (or time span) before and after, via ffmpeg's
 * volumedetect.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import t from 'tap';
import { DENOISE, VOCAL_CUT, VOCAL_CUT_KEEP_BASS } from '../../engine/features/audio/filters.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../endpoints/tools/fixtures');
const mix = path.join(FIXTURES, 'vocalremover-mix.mp3');
const noisy = path.join(FIXTURES, 'noiseremover-noisy.mp3');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-filters-'));
t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Mean level in dB of `file` after `filter` (a band-pass or a time trim). */
function level(file: string, filter: string): number {
  const { stderr } = spawnSync('ffmpeg', ['-hide_banner', '-nostdin', '-i', file, '-af', `${filter},volumedetect`, '-f', 'null', '-'], { encoding: 'utf8' });
  const m = /mean_volume: (-?[\d.]+) dB/.exec(stderr);
  if (!m) throw new Error(`no level for ${filter}`);
  return Number(m[1]);
}

function apply(input: string, graph: string, name: string, complex = true): string {
  const out = path.join(dir, name);
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-i',
    input,
    complex ? '-filter_complex' : '-af',
    complex ? `[0:a:0]${graph}` : graph,
    '-c:a',
    'pcm_s16le',
    out,
  ]);
  return out;
}

const BASS = 'lowpass=f=80,lowpass=f=80'; // the centred 55 Hz line
const SIDE_TONE = 'bandpass=f=330:w=30'; // a tone only in the left channel
const VOICE = 'highpass=f=700,highpass=f=700'; // the centred speech's upper harmonics

t.test('vocal cut: the centre speech and bass go, the side tone stays', async (t) => {
  const out = apply(mix, VOCAL_CUT, 'cut.wav');
  t.ok(level(mix, VOICE) - level(out, VOICE) > 15, 'speech band down by more than 15 dB');
  t.ok(level(mix, BASS) - level(out, BASS) > 40, 'centred bass cancelled');
  t.ok(level(mix, SIDE_TONE) - level(out, SIDE_TONE) < 6, 'side tone kept (within 6 dB)');
});

t.test('vocal cut keeping the bass: the speech goes, the centred bass stays', async (t) => {
  const out = apply(mix, VOCAL_CUT_KEEP_BASS, 'keep.wav');
  t.ok(level(mix, VOICE) - level(out, VOICE) > 15, 'speech band down by more than 15 dB');
  t.ok(Math.abs(level(mix, BASS) - level(out, BASS)) < 3, 'bass within 3 dB');
});

t.test('denoise: the noise-only tail drops, speech keeps its level', async (t) => {
  const out = apply(noisy, DENOISE, 'clean.wav', false);
  const speech = 'atrim=end=4.5';
  const tail = 'atrim=start=5.6';
  t.ok(level(noisy, tail) - level(out, tail) > 20, `noise tail down by more than 20 dB`);
  t.ok(Math.abs(level(noisy, speech) - level(out, speech)) < 2, 'speech level within 2 dB');
});

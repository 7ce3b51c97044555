/**
 * wavSeconds (engine/features/audio/wav.ts): a WAV's length from its RIFF header, as the
 * speech engines write it; anything else is left to ffprobe.
 */
import fs from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { wavSeconds } from '../../engine/features/audio/wav.js';
import { tempDataDir } from '../support/serve.js';

/** A PCM WAV: `rate` Hz, 16-bit mono, `samples` samples, with an extra chunk before `data` when asked; `declared` overrides the data size in the header. */
function wav(rate: number, samples: number, options: { extra?: boolean; declared?: number } = {}): Buffer {
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8); // PCM
  fmt.writeUInt16LE(1, 10); // mono
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * 2, 16); // byte rate
  fmt.writeUInt16LE(2, 20);
  fmt.writeUInt16LE(16, 22);
  const list = Buffer.concat([Buffer.from('LIST', 'latin1'), Buffer.from([5, 0, 0, 0]), Buffer.from('INFOx\0', 'latin1')]);
  const data = Buffer.alloc(8 + samples * 2);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(options.declared ?? samples * 2, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'latin1'), fmt, ...(options.extra ? [list] : []), data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

const file = (name: string, bytes: Buffer) => {
  const p = path.join(tempDataDir('manifold-wav-'), name);
  fs.writeFileSync(p, bytes);
  return p;
};

t.test('seconds from the byte rate and the data size', async (t) => {
  t.equal(await wavSeconds(file('a.wav', wav(16000, 32000))), 2);
  t.equal(await wavSeconds(file('b.wav', wav(22050, 11025, { extra: true }))), 0.5, 'past a LIST chunk (odd length, padded)');
  t.equal(await wavSeconds(file('c.wav', wav(16000, 8000, { declared: 0x7fffffff }))), 0.5, 'a streamed data size counts the bytes there');
});

t.test('not a WAV it can read: undefined', async (t) => {
  t.equal(await wavSeconds(file('d.mp3', Buffer.from('ID3\u0004\0\0\0\0\0\0 not a wav at all', 'latin1'))), undefined);
  t.equal(await wavSeconds(file('e.wav', Buffer.alloc(0))), undefined, 'empty');
});

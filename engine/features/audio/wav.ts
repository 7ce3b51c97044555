import fs from 'node:fs';

/**
 * Seconds of PCM audio in a WAV file, from its RIFF header alone (the `fmt ` chunk's byte
 * rate, the `data` chunk's size): what the speech engines write, so a hosted TTS answer
 * can say its length without an ffprobe run (~80–110 ms of CPU per call, more than
 * espeak-ng's own synthesis). A `data` size that overruns the file (an engine that wrote
 * it as a stream) counts the bytes that are there. Undefined when the file is not a WAV
 * it can read: the caller measures the encoded file instead.
 */
export async function wavSeconds(file: string): Promise<number | undefined> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(size, 4096));
    await handle.read(head, 0, head.length, 0);
    if (head.length < 12 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE') return undefined;
    let byteRate: number | undefined;
    for (let at = 12; at + 8 <= head.length;) {
      const id = head.toString('latin1', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      if (id === 'fmt ' && at + 16 <= head.length) byteRate = head.readUInt32LE(at + 16);
      if (id === 'data') {
        if (!byteRate) return undefined;
        return Math.min(length, size - at - 8) / byteRate;
      }
      at += 8 + length + (length % 2);
    }
    return undefined;
  } finally {
    await handle.close();
  }
}

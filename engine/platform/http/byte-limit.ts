import { Transform, type Readable } from 'node:stream';

/**
 * Size caps for response bodies, counted on the decoded bytes (after gzip/br),
 * so a small compressed bomb cannot expand past the cap.
 */

/** Read a whole stream into memory, destroying it once more than `maxBytes` arrive. */
export async function readCapped(stream: Readable, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      stream.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, size);
}

/** A pass-through that fails with `tooLarge()` on the chunk that crosses `maxBytes`. */
export function capBytes(maxBytes: number, tooLarge: () => Error): Transform {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size > maxBytes) callback(tooLarge());
      else callback(null, chunk);
    },
  });
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileTypeFromFile } from 'file-type';
import { contentTypeOf } from '../../platform/storage/files.js';

/**
 * What an uploaded temp file really is: its SHA-256 (read once, streamed), and its
 * type from its bytes (file-type's magic numbers), never from the client's claim.
 * Files without magic numbers (plain text, HTML, SVG, CSV…) keep the extension
 * of their name only when the bytes are text and the extension is a text type;
 * anything else unknown is stored as .bin (application/octet-stream).
 */
export interface Inspected {
  sha256: string;
  size: number;
  ext: string;
  mime: string;
}

const TEXT_EXTENSIONS = new Set(['txt', 'md', 'csv', 'json', 'html', 'htm', 'xml', 'svg', 'js', 'css', 'log', 'yaml', 'yml', 'srt', 'vtt']);

export async function inspectFile(file: string, clientName: string): Promise<Inspected> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  await pipeline(fs.createReadStream(file), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
    }
  });
  const sha256 = hash.digest('hex');
  const sniffed = await fileTypeFromFile(file);
  if (sniffed) return { sha256, size, ext: sniffed.ext, mime: sniffed.mime };
  const claimed = path.extname(clientName).slice(1).toLowerCase();
  if (await looksLikeText(file)) {
    const ext = TEXT_EXTENSIONS.has(claimed) ? claimed : 'txt';
    return { sha256, size, ext, mime: contentTypeOf(`x.${ext}`) };
  }
  return { sha256, size, ext: 'bin', mime: 'application/octet-stream' };
}

/** UTF-8 without NUL bytes in the first 64 KB (a cut multi-byte character at the end is fine). */
async function looksLikeText(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(65536), 0, 65536, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) return false;
    const decoded = new TextDecoder('utf-8', { fatal: false }).decode(head);
    const replacements = (decoded.match(/\uFFFD/g) ?? []).length;
    return replacements <= 1;
  } finally {
    await handle.close();
  }
}

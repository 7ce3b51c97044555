import sharp from 'sharp';

export type ImageFormat = 'png' | 'jpg' | 'webp';
export const CONTENT_TYPES: Record<ImageFormat, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };

/**
 * Encodes straight (non-premultiplied) RGBA with sharp. Skia's own PNG encoder
 * spends ~40 ms on 1024×512; zlib level 3 without adaptive filtering takes a
 * few ms for files ~1.5× the size of level 9 (numbers in engine/features/effects/README.md).
 */
export async function encode(rgba: Uint8ClampedArray | Buffer, width: number, height: number, format: ImageFormat): Promise<Buffer> {
  const img = sharp(Buffer.from(rgba.buffer, rgba.byteOffset, rgba.byteLength), { raw: { width, height, channels: 4 } });
  switch (format) {
    case 'png':
      return img.png({ compressionLevel: 3, adaptiveFiltering: false }).toBuffer();
    case 'jpg':
      return img.flatten({ background: '#ffffff' }).jpeg({ quality: 88, chromaSubsampling: '4:2:0' }).toBuffer();
    case 'webp':
      return img.webp({ quality: 88, effort: 1 }).toBuffer();
  }
}

/**
 * How an image is cut for the upscaling network: square tiles of one size (the last row
 * and column shifted back to end at the image's edge, overlapping their neighbours), each
 * read with a margin of context of at least the network's receptive radius. With that margin, a
 * tile's pixels are the pixels the whole image would give (the zero padding the network
 * sees at a cut would otherwise reach them): no seam, and memory bounded by the tile.
 */

/** Tile side in input pixels: ~110 MB of feature maps for the ×4 networks, and little margin overhead. */
export const TILE_SIDE = 128;

export interface Tile {
  /** The pixels this tile contributes, in input coordinates. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** What the network reads: the tile plus its margin, clipped to the image. */
  readX: number;
  readY: number;
  readWidth: number;
  readHeight: number;
}

/** Starts of the tiles along one side: every `side` pixels, the last one ending at `length`. */
export function tileStarts(length: number, side: number): number[] {
  if (length <= side) return [0];
  const starts: number[] = [];
  for (let at = 0; at + side < length; at += side) starts.push(at);
  starts.push(length - side);
  return starts;
}

/**
 * The tiles covering a `width`×`height` image. Each reads its pixels and `margin` pixels of
 * context around them where the image has them; every read window has the same size (one
 * near an edge is shifted inward and reads more context on its other side), so the
 * runtime sees one input shape and plans its memory once.
 */
export function planTiles(width: number, height: number, margin: number, side = TILE_SIDE): Tile[] {
  const w = Math.min(side, width),
    h = Math.min(side, height);
  const readWidth = Math.min(width, w + 2 * margin),
    readHeight = Math.min(height, h + 2 * margin);
  const tiles: Tile[] = [];
  for (const y of tileStarts(height, side))
    for (const x of tileStarts(width, side))
      tiles.push({
        x,
        y,
        width: w,
        height: h,
        readX: clamp(x - margin, 0, width - readWidth),
        readY: clamp(y - margin, 0, height - readHeight),
        readWidth,
        readHeight,
      });
  return tiles;
}

const clamp = (v: number, low: number, high: number) => Math.min(high, Math.max(low, v));

/** The tile's read area of an RGB image as the network's input: floats, channels last, 0..255. */
export function tileInput(rgb: Uint8Array, width: number, tile: Tile): Float32Array {
  const out = new Float32Array(tile.readWidth * tile.readHeight * 3);
  for (let row = 0; row < tile.readHeight; row++) {
    const from = ((tile.readY + row) * width + tile.readX) * 3;
    const line = rgb.subarray(from, from + tile.readWidth * 3);
    out.set(line, row * tile.readWidth * 3);
  }
  return out;
}

/**
 * The network's output for a tile (floats, channels last, `scale` times the read area)
 * written into the whole output image: the tile's own pixels only, the margin dropped,
 * each value rounded and held to 0..255.
 */
export function placeTile(output: Uint8Array, outWidth: number, result: Float32Array, tile: Tile, scale: number): void {
  const resultWidth = tile.readWidth * scale;
  const offsetX = (tile.x - tile.readX) * scale,
    offsetY = (tile.y - tile.readY) * scale;
  const rowValues = tile.width * scale * 3;
  for (let row = 0; row < tile.height * scale; row++) {
    let from = ((offsetY + row) * resultWidth + offsetX) * 3;
    let to = ((tile.y * scale + row) * outWidth + tile.x * scale) * 3;
    for (let i = 0; i < rowValues; i++) output[to++] = clampByte(result[from++]);
  }
}

const clampByte = (v: number) => (v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v));

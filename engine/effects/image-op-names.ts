/** The manipulations of engine/effects/image-ops.ts by name: the image adapter's config schema needs them at boot, the canvas code not. */
export const IMAGE_OPS = ['blur', 'grayscale', 'invert', 'sepia', 'pixelate', 'circle', 'rotate', 'flip', 'mirror', 'resize', 'adjust', 'deepfry', 'meme', 'triggered'] as const;
export type ImageOp = (typeof IMAGE_OPS)[number];

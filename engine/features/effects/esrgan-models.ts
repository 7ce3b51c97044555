import path from 'node:path';
import { ROOT } from '../../core/root.js';

/**
 * The ESRGAN networks the upscaler and remini run, converted to ONNX at build time
 * (scripts/models/build.ts) from the weights the @upscalerjs packages ship (MIT):
 * slim (≈0.9 MB) for /api/tools/imageupscaler's esrgan-slim-* models, medium (≈2.8 MB)
 * for remini's enhancement.
 */
export const ESRGAN_NETWORKS = {
  'esrgan-slim-x2': { package: '@upscalerjs/esrgan-slim', scale: 2 },
  'esrgan-slim-x3': { package: '@upscalerjs/esrgan-slim', scale: 3 },
  'esrgan-slim-x4': { package: '@upscalerjs/esrgan-slim', scale: 4 },
  'esrgan-medium-x4': { package: '@upscalerjs/esrgan-medium', scale: 4 },
} as const;
export type EsrganNetwork = keyof typeof ESRGAN_NETWORKS;

/** Where the build writes the converted networks (git-ignored, like the rest of build/). */
export const MODELS_DIR = path.join(ROOT, 'build', 'models');
/** What the build records about each network beside the files: scale and the context a tile needs. */
export const MODELS_INDEX = 'index.json';

export interface BuiltNetwork {
  file: string;
  scale: number;
  /** Input pixels each output pixel depends on, on each side (the tiles' margin). */
  receptiveRadius: number;
  /** The package files it was converted from. */
  source: string;
}

export const modelFile = (name: EsrganNetwork): string => `${name}.onnx`;

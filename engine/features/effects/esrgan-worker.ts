import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

/**
 * Piscina entry for neural upscaling: the ESRGAN (RDN) weights shipped in the
 * @upscalerjs/esrgan-slim and @upscalerjs/esrgan-medium packages (MIT), run with
 * TensorFlow.js on the wasm backend (tfjs-node cannot install offline; the pure-JS
 * backend is ~30× slower; the `upscaler` wrapper's ESM build does not import in Node,
 * so the models are called directly). Input and output are raw RGB bytes in the
 * 0..255 range these models expect.
 *
 * Big inputs run in tiles, each with a margin of context that is cut away again, so
 * memory stays bounded by the tile size (a whole 256×256 image at ×4 would hold
 * several 64-channel 256×256 feature maps at once) and seams do not show.
 */
export type EsrganModel = 'slim' | 'medium';
export interface EsrganJob {
  model?: EsrganModel;
  scale: 2 | 3 | 4;
  rgb: Uint8Array;
  width: number;
  height: number;
}
export interface EsrganResult {
  rgb: Uint8Array;
  width: number;
  height: number;
}

const PACKAGES: Record<EsrganModel, string> = { slim: '@upscalerjs/esrgan-slim', medium: '@upscalerjs/esrgan-medium' };
/** Tile side and the context margin around each tile, in input pixels. */
export const TILE = 128;
const MARGIN = 12;

const require = createRequire(import.meta.url);
const models = new Map<string, Promise<tf.LayersModel>>();
let backend: Promise<boolean> | undefined;

function loadModel(model: EsrganModel, scale: number): Promise<tf.LayersModel> {
  const key = `${model}x${scale}`;
  let loaded = models.get(key);
  if (!loaded) {
    const packageDir = require.resolve(PACKAGES[model]).split(`${path.sep}dist${path.sep}`)[0];
    const dir = path.join(packageDir, 'models', `x${scale}`);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
    const weights = fs.readFileSync(path.join(dir, json.weightsManifest[0].paths[0]));
    loaded = tf.loadLayersModel(
      tf.io.fromMemory({
        modelTopology: json.modelTopology,
        weightSpecs: json.weightsManifest[0].weights,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      }),
    );
    models.set(key, loaded);
  }
  return loaded;
}

export default async function run(job: EsrganJob): Promise<EsrganResult> {
  backend ??= (setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`), tf.setBackend('wasm'));
  if (!(await backend)) throw new Error('tfjs wasm backend failed to start');
  const model = await loadModel(job.model ?? 'slim', job.scale);
  const { width: w, height: h, scale: s } = job;
  const image = tf.tensor3d(Float32Array.from(job.rgb), [h, w, 3]);
  const out = new Uint8Array(w * s * h * s * 3);
  try {
    for (let y0 = 0; y0 < h; y0 += TILE) {
      for (let x0 = 0; x0 < w; x0 += TILE) {
        const tw = Math.min(TILE, w - x0),
          th = Math.min(TILE, h - y0);
        const px0 = Math.max(0, x0 - MARGIN),
          py0 = Math.max(0, y0 - MARGIN);
        const px1 = Math.min(w, x0 + tw + MARGIN),
          py1 = Math.min(h, y0 + th + MARGIN);
        const patch = tf.tidy(() => {
          const input = image.slice([py0, px0, 0], [py1 - py0, px1 - px0, 3]).expandDims(0);
          return (model.predict(input) as tf.Tensor4D).clipByValue(0, 255).round().toInt();
        });
        const data = await patch.data();
        patch.dispose();
        // keep the tile's own pixels, drop the margin
        const patchWidth = (px1 - px0) * s;
        for (let row = 0; row < th * s; row++) {
          const src = (((y0 - py0) * s + row) * patchWidth + (x0 - px0) * s) * 3;
          out.set(data.subarray(src, src + tw * s * 3), ((y0 * s + row) * w * s + x0 * s) * 3);
        }
      }
    }
  } finally {
    image.dispose();
  }
  return { rgb: out, width: w * s, height: h * s };
}

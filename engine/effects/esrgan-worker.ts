import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

/**
 * Piscina entry for neural upscaling: ESRGAN-slim (RDN) weights shipped in the
 * @upscalerjs/esrgan-slim package, run with TensorFlow.js on the wasm backend
 * (tfjs-node cannot install offline; the pure-JS backend is ~30× slower).
 * Input and output are raw RGB bytes in the 0..255 range the model expects.
 */
export interface EsrganJob { scale: 2 | 3 | 4; rgb: Uint8Array; width: number; height: number }
export interface EsrganResult { rgb: Uint8Array; width: number; height: number }

const require = createRequire(import.meta.url);
const packageDir = require.resolve('@upscalerjs/esrgan-slim').split(`${path.sep}dist${path.sep}`)[0];
const models = new Map<number, Promise<tf.LayersModel>>();
let backend: Promise<boolean> | undefined;

function loadModel(scale: number): Promise<tf.LayersModel> {
  let model = models.get(scale);
  if (!model) {
    const dir = path.join(packageDir, 'models', `x${scale}`);
    const json = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8'));
    const weights = fs.readFileSync(path.join(dir, json.weightsManifest[0].paths[0]));
    model = tf.loadLayersModel(tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest[0].weights,
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
    }));
    models.set(scale, model);
  }
  return model;
}

export default async function run(job: EsrganJob): Promise<EsrganResult> {
  backend ??= (setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'))}/`), tf.setBackend('wasm'));
  if (!(await backend)) throw new Error('tfjs wasm backend failed to start');
  const model = await loadModel(job.scale);
  const output = tf.tidy(() => {
    const input = tf.tensor4d(Float32Array.from(job.rgb), [1, job.height, job.width, 3]);
    return (model.predict(input) as tf.Tensor4D).clipByValue(0, 255).round().toInt();
  });
  const [, height, width] = output.shape;
  const rgb = Uint8Array.from(await output.data());
  output.dispose();
  return { rgb, width, height };
}

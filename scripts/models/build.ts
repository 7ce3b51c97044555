/**
 * The ESRGAN networks the upscaler
 * and remini run on onnxruntime, converted from the weights the @upscalerjs packages ship
 * (model.json + weight shards) into build/models/<name>.onnx. Deterministic: the same
 * package files give the same bytes, and an unchanged file is not rewritten. Run by
 * `npm run models:build` (run.ts), also the last step of `npm run build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { ESRGAN_NETWORKS, MODELS_DIR, MODELS_INDEX, modelFile, type BuiltNetwork, type EsrganNetwork } from '../../engine/features/effects/esrgan-models.js';
import { kerasToOnnx, type LayersModelJson } from './keras-to-onnx.js';

const require = createRequire(import.meta.url);

/** The folder of an installed package (these export no ./package.json: found above their entry point). */
export function packageDir(name: string): string {
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new Error(`models: no package.json of ${name} above its entry point`);
}

/** The layers model of one network as the package ships it: model.json and its weight bytes, shards in order. */
export function readLayersModel(pkg: string, scale: number): { json: LayersModelJson; weights: Uint8Array; source: string } {
  const dir = path.join(packageDir(pkg), 'models', `x${scale}`);
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'model.json'), 'utf8')) as LayersModelJson;
  const weights = Buffer.concat(json.weightsManifest.flatMap((group) => group.paths.map((p) => fs.readFileSync(path.join(dir, p)))));
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir(pkg), 'package.json'), 'utf8')) as { version: string };
  return { json, weights, source: `${pkg}@${version} models/x${scale}` };
}

/** Writes every network's ONNX file and the index the engine reads; returns how many files were (re)written. */
export function buildModels(dir = MODELS_DIR): { written: number; total: number } {
  fs.mkdirSync(dir, { recursive: true });
  const index: Record<string, BuiltNetwork> = {};
  let written = 0;
  for (const name of Object.keys(ESRGAN_NETWORKS) as EsrganNetwork[]) {
    const network = ESRGAN_NETWORKS[name];
    const { json, weights, source } = readLayersModel(network.package, network.scale);
    const { bytes, scale, receptiveRadius } = kerasToOnnx(json, weights, source);
    if (scale !== network.scale) throw new Error(`models: ${source} upscales ${scale}×, ${network.scale}× expected`);
    index[name] = { file: modelFile(name), scale, receptiveRadius, source };
    if (writeIfChanged(path.join(dir, modelFile(name)), bytes)) written++;
  }
  // the index last: a build that stopped half-way leaves no index naming a missing file
  writeIfChanged(path.join(dir, MODELS_INDEX), Buffer.from(`${JSON.stringify(index, null, 2)}\n`));
  return { written, total: Object.keys(index).length };
}

function writeIfChanged(file: string, bytes: Uint8Array): boolean {
  if (fs.existsSync(file) && fs.readFileSync(file).equals(bytes)) return false;
  fs.writeFileSync(file, bytes);
  return true;
}

/**
 * `npm run models:build` (also the last step of `npm run build`): builds the ESRGAN networks
 * (build.ts) when the neural feature is installed — onnxruntime-node, the @upscalerjs weight
 * packages and onnx-proto, the workspace optional/neural — and says how to add it when it
 * is not, without failing the build: the upscaler's neural models and remini are then
 * unavailable, naming the same command.
 */
import path from 'node:path';
import { missingPackages } from '../../engine/core/packages.js';
import { ESRGAN_NETWORKS, MODELS_DIR } from '../../engine/features/effects/esrgan-models.js';

const needed = ['onnxruntime-node', 'onnx-proto', ...new Set(Object.values(ESRGAN_NETWORKS).map((n) => n.package))];
const missing = missingPackages(needed);
if (missing) console.log(`models: not built, the neural upscaler is not installed: ${missing}`);
else {
  const { buildModels } = await import('./build.js');
  const { written, total } = buildModels();
  console.log(`models: ${total} ESRGAN networks in ${path.relative(process.cwd(), MODELS_DIR)} (${written} written)`);
}

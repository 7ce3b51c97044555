/**
 * The neural upscaler's engines side by side, in one run, on the same 256×256 photo ×4:
 * the TensorFlow.js engine the upscaler ran on until #21 (wasm backend, one thread) and the
 * onnxruntime engine it runs on now (the same ESRGAN weights converted at build time), each
 * in its own worker thread as the server runs them, in interleaved rounds.
 *
 *   npm run build && node --import tsx bench/local-engines/upscaler.ts
 *   ROUNDS=7 SIDE=256 node --import tsx bench/local-engines/upscaler.ts -- --base <commit>
 *
 * TensorFlow.js is no longer installed with the project: the reference engine is the
 * worker file as `--base` had it (default: the last commit that had it), run with the
 * packages it was released with, installed once into a folder under the temp directory
 * (`npm install` from the registry, ~320 MB; kept for the next run).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import sharp from 'sharp';
import { ESRGAN_NETWORKS, type EsrganNetwork } from '../../engine/features/effects/esrgan-models.js';
import { neuralThreads } from '../../engine/features/effects/upscale.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SIDE = Number(process.env.SIDE ?? 256);
const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const REFERENCE_FILE = 'engine/features/effects/esrgan-worker.ts';
/** What the TensorFlow.js engine ran with (package-lock.json before #21). */
const REFERENCE_PACKAGES = {
  '@tensorflow/tfjs': '4.11.0',
  '@tensorflow/tfjs-backend-wasm': '4.11.0',
  '@upscalerjs/esrgan-slim': '1.0.0',
  '@upscalerjs/esrgan-medium': '1.0.0',
};

const git = (...a: string[]) => execFileSync('git', ['-C', ROOT, ...a], { encoding: 'utf8' }).trim();

/** The TensorFlow.js worker as `base` had it, beside its packages; its path. */
function referenceWorker(): { file: string; commit: string } {
  const inTree = fs.existsSync(path.join(ROOT, REFERENCE_FILE));
  // the last commit that had the file: HEAD while it exists, else the parent of the one that removed it
  const commit = option('base') ?? (inTree ? 'HEAD' : `${git('rev-list', '-1', 'HEAD', '--', REFERENCE_FILE)}^`);
  const short = git('rev-parse', '--short=12', `${commit}^{commit}`);
  const dir = path.join(os.tmpdir(), 'manifold-tfjs-reference');
  const manifest = JSON.stringify({ name: 'tfjs-reference', private: true, type: 'module', dependencies: REFERENCE_PACKAGES }, null, 2);
  if (!fs.existsSync(path.join(dir, 'node_modules')) || fs.readFileSync(path.join(dir, 'package.json'), 'utf8') !== manifest) {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), manifest);
    console.error(`bench: installing the reference engine's packages into ${dir}`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const file = path.join(dir, `esrgan-worker-${short}.ts`);
  fs.writeFileSync(file, git('show', `${short}:${REFERENCE_FILE}`));
  return { file, commit: short };
}

/** One photo, the same for both engines: a real picture (the remini fixture) enlarged to SIDE×SIDE. */
async function photo(): Promise<Uint8Array> {
  const { data } = await sharp(path.join(ROOT, 'endpoints/tools/fixtures/remini-astronaut-64x48.jpg'))
    .resize(SIDE, SIDE, { fit: 'cover', kernel: 'lanczos3' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const reference = referenceWorker();
const rgb = await photo();
const threads = neuralThreads();
const onnx = (n: number) =>
  new Piscina({
    filename: new URL('../../engine/features/effects/esrgan-onnx-worker.ts', import.meta.url).href,
    maxThreads: 1,
    workerData: { threads: n },
  });
const engines = [
  {
    name: `TF.js wasm, 1 thread (${reference.commit})`,
    pool: new Piscina({ filename: reference.file, maxThreads: 1 }),
    tfjs: true,
    times: new Map<string, number[]>(),
  },
  { name: 'onnxruntime, 1 thread', pool: onnx(1), tfjs: false, times: new Map<string, number[]>() },
  ...(threads > 1 ? [{ name: `onnxruntime, ${threads} threads`, pool: onnx(threads), tfjs: false, times: new Map<string, number[]>() }] : []),
];
const networks: [EsrganNetwork, 'slim' | 'medium'][] = [
  ['esrgan-slim-x4', 'slim'],
  ['esrgan-medium-x4', 'medium'],
];

const outputs = new Map<string, Uint8Array>();
const once = async (engine: (typeof engines)[number], network: EsrganNetwork, model: 'slim' | 'medium') => {
  const job = engine.tfjs ? { model, scale: ESRGAN_NETWORKS[network].scale, rgb, width: SIDE, height: SIDE } : { network, rgb, width: SIDE, height: SIDE };
  const start = performance.now();
  const result = (await engine.pool.run(job)) as { rgb: Uint8Array };
  const ms = performance.now() - start;
  outputs.set(`${engine.name}\0${network}`, result.rgb);
  return ms;
};

// a first call per engine and network loads the model: not timed
for (const engine of engines) for (const [network, model] of networks) await once(engine, network, model);
for (let round = 0; round < ROUNDS; round++) {
  // each round in another order, so no engine always runs on a warmer (or busier) machine
  const order = round % 2 ? [...engines].reverse() : engines;
  for (const [network, model] of networks)
    for (const engine of order) {
      const ms = await once(engine, network, model);
      engine.times.set(network, [...(engine.times.get(network) ?? []), ms]);
    }
}

console.log(
  `ESRGAN ×4 on a ${SIDE}×${SIDE} photo, median of ${ROUNDS} interleaved rounds (load ${os.loadavg()[0].toFixed(1)}, ${os.availableParallelism()} cores)\n`,
);
console.log('| network | engine | median (ms) | spread (ms) | vs TF.js | mean abs difference to TF.js (of 255) |\n|---|---|---:|---:|---:|---:|');
for (const [network] of networks) {
  const base = median(engines[0].times.get(network)!);
  const baseOut = outputs.get(`${engines[0].name}\0${network}`)!;
  for (const engine of engines) {
    const times = engine.times.get(network)!;
    const out = outputs.get(`${engine.name}\0${network}`)!;
    let diff = 0;
    for (let i = 0; i < out.length; i++) diff += Math.abs(out[i] - baseOut[i]);
    const m = median(times);
    console.log(
      `| ${network} | ${engine.name} | ${Math.round(m)} | ${Math.round(Math.min(...times))}–${Math.round(Math.max(...times))} | ${(base / m).toFixed(2)}× | ${(diff / out.length).toFixed(4)} |`,
    );
  }
}
await Promise.all(engines.map((e) => e.pool.destroy()));

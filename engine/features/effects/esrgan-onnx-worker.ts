import fs from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { boundedTask } from '../../platform/workers/task.js';
import { MEMORY_PROFILES, type NeuralMemory } from '../../platform/settings/memory-profile.js';
import { ESRGAN_NETWORKS, MODELS_DIR, MODELS_INDEX, type BuiltNetwork, type EsrganNetwork } from './esrgan-models.js';
import { placeTile, planTiles, tileInput } from './esrgan-tiles.js';

/**
 * Worker-thread entry for neural upscaling: the ESRGAN networks converted to ONNX at build
 * time (scripts/models/build.ts), run by onnxruntime's CPU engine with as many threads as
 * the pool gives it (`workerData.threads`), tile by tile (esrgan-tiles.ts; the tile side and
 * whether onnxruntime keeps its arena come from MEMORY_PROFILE). A network's
 * session is made on its first job and kept while the worker lives; the pool retires an
 * idle worker, and the memory with it.
 */
export interface EsrganJob {
  network: EsrganNetwork;
  rgb: Uint8Array;
  width: number;
  height: number;
}
export interface EsrganResult {
  rgb: Uint8Array;
  width: number;
  height: number;
}
export interface EsrganWorkerData {
  /** onnxruntime's threads for one job (upscale.ts: neuralThreads). */
  threads: number;
  /** Tiles and arena (MEMORY_PROFILE: settings/memory-profile.ts); the default profile's when absent. */
  memory?: NeuralMemory;
}

const given = workerData as Partial<EsrganWorkerData> | undefined;
const threads = Math.max(1, given?.threads ?? 1);
const { tileSide, arena } = given?.memory ?? MEMORY_PROFILES.default.neural;
const sessions = new Map<EsrganNetwork, Promise<{ session: ort.InferenceSession; built: BuiltNetwork }>>();

function open(network: EsrganNetwork) {
  let opened = sessions.get(network);
  if (!opened) {
    opened = (async () => {
      const index = JSON.parse(await fs.promises.readFile(path.join(MODELS_DIR, MODELS_INDEX), 'utf8')) as Record<string, BuiltNetwork>;
      const built = index[network];
      if (!built || built.scale !== ESRGAN_NETWORKS[network].scale) throw new Error(`${network} is not among the built networks in ${MODELS_DIR}`);
      const session = await ort.InferenceSession.create(path.join(MODELS_DIR, built.file), {
        executionProviders: ['cpu'],
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // without them each layer's maps are allocated and freed as it runs: a lower peak, given back at once
        enableCpuMemArena: arena,
        enableMemPattern: arena,
        // threads that spin between tiles would take CPU from the rest of the server
        extra: { session: { intra_op: { allow_spinning: '0' } } },
      });
      return { session, built };
    })();
    // a failed start is not kept: the next job tries again (e.g. after `npm run build`)
    opened.catch(() => sessions.delete(network));
    sessions.set(network, opened);
  }
  return opened;
}

/** One job of the neural pool (upscale.ts), through the bounded pool's task wrapper: the wall clock starts once the worker has it. */
export default boundedTask(run);

async function run(job: EsrganJob): Promise<EsrganResult> {
  const { session, built } = await open(job.network);
  const { width, height } = job;
  const scale = built.scale;
  const out = new Uint8Array(width * scale * height * scale * 3);
  for (const tile of planTiles(width, height, built.receptiveRadius, tileSide)) {
    const input = new ort.Tensor('float32', tileInput(job.rgb, width, tile), [1, tile.readHeight, tile.readWidth, 3]);
    const result = await session.run({ input });
    try {
      placeTile(out, width * scale, result.output.data as Float32Array, tile, scale);
    } finally {
      result.output.dispose();
    }
  }
  return { rgb: out, width: width * scale, height: height * scale };
}

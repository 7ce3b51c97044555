/**
 * MEMORY_PROFILE: the defaults that decide how much memory the server holds once busy
 * (bench/memory measures them; the Memory section of docs/operating/performance.md has the figures). `default` suits a
 * host with 1 GB or more; `small` a 512 MB container or VPS: one worker thread per pool, small
 * caches, the OCR worker retired within seconds, and V8 and glibc set for size (which `npm start`
 * applies: scripts/v8-args.mjs, scripts/malloc-env.mjs). Every endpoint answers under either;
 * `small` trades throughput (parallel heavy work, ~15% more CPU) for memory. A variable set on its
 * own (CPU_THREADS, EFFECTS_THREADS, UPSCALE_THREADS, CACHE_MAX_BYTES, RENDER_CACHE_MAX_BYTES,
 * WORKER_IDLE_MS, OCR_IDLE_MS) wins over its profile's value.
 */
export const MEMORY_PROFILES = {
  default: {
    /** Worker threads of the code and render pools and onnxruntime's threads: unset, so each takes its own default (the cores). */
    threads: undefined,
    cacheMaxBytes: 64 * 1024 * 1024,
    renderCacheMaxBytes: 16 * 1024 * 1024,
    // short: an idle render worker holds ~60-90 MiB (Skia's and its heap's), and bench/memory's
    // mix ends with the two render workers still inside 5 s on a quiet machine, OCR being quick:
    // 600 MiB after it (600, 645, 581) against 366 (366, 377, 361) with 2 s; a cold worker costs
    // the next call ~0.15-0.25 s (an effect) or up to ~0.8 s (a code tool loading its modules)
    workerIdleMs: 2_000,
    ocrIdleMs: 60_000,
    neural: { tileSide: 128, arena: true },
  },
  small: {
    threads: 1,
    cacheMaxBytes: 16 * 1024 * 1024,
    renderCacheMaxBytes: 4 * 1024 * 1024,
    workerIdleMs: 2_000,
    ocrIdleMs: 10_000,
    // a neural call's peak, which a 512 MB container must survive: onnxruntime's arena keeps
    // the largest feature maps it has seen (and rounds them up), and the ×4 networks' maps grow
    // with the tile. bench/memory, small: a 256×256 remini's peak RSS 792 MiB with 128-pixel
    // tiles and the arena, 412 with 64 and none, for 3.4 s of CPU against 1.6
    neural: { tileSide: 64, arena: false },
  },
} as const satisfies Record<string, MemoryProfileDefaults>;

export interface MemoryProfileDefaults {
  threads: number | undefined;
  cacheMaxBytes: number;
  renderCacheMaxBytes: number;
  workerIdleMs: number;
  ocrIdleMs: number;
  neural: NeuralMemory;
}

/** How the neural upscaler's worker runs the networks (effects/esrgan-onnx-worker.ts). */
export interface NeuralMemory {
  /** Tile side in input pixels: the feature maps, and memory, grow with its square. */
  tileSide: number;
  /** onnxruntime's CPU arena and memory pattern: faster, but they keep the peak while the worker lives. */
  arena: boolean;
}

export type MemoryProfile = keyof typeof MEMORY_PROFILES;

/** MEMORY_PROFILE's value (`default` when unset); anything else stops the boot naming the choices. */
export function memoryProfile(env: Readonly<Record<string, string | undefined>>): MemoryProfile {
  const raw = env.MEMORY_PROFILE?.trim() || 'default';
  if (!Object.hasOwn(MEMORY_PROFILES, raw))
    throw new Error(`MEMORY_PROFILE must be one of ${Object.keys(MEMORY_PROFILES).join(', ')}, got "${env.MEMORY_PROFILE}"`);
  return raw as MemoryProfile;
}

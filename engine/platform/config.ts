import path from 'node:path';
import { nonNegativeInt, optionalPositiveInt, positiveInt } from './settings/int.js';
import { checkSecrets } from './settings/secret-strength.js';
import { MEMORY_PROFILES, memoryProfile, type MemoryProfile, type NeuralMemory } from './settings/memory-profile.js';
import { parseTrustProxy, type TrustProxy } from './http/client-ip.js';

/**
 * The environment, parsed once into a frozen object. Adapters and upstreams read
 * their own variables from `env` (a frozen copy), so a test can build a Config
 * from a plain object without touching process.env.
 */
export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  /** Where manifests live (ENDPOINTS_DIR); the project's endpoints/ by default. */
  endpointsDir?: string;
  creator: string;
  version: string;
  /** The shared test key; undefined when TEST_API_KEY=off (the key then answers 401 like any unknown one). */
  testApiKey?: string;
  adminToken?: string;
  testKeyRpm: number;
  personalKeyRpm: number;
  /** Requests per UTC day per key of each tier (TEST_KEY_DAILY, PERSONAL_KEY_DAILY); undefined: no daily quota. */
  testKeyDaily?: number;
  personalKeyDaily?: number;
  /** Unfinished async jobs one key may have, by tier (TEST_KEY_MAX_JOBS, PERSONAL_KEY_MAX_JOBS). */
  testKeyMaxJobs: number;
  personalKeyMaxJobs: number;
  redisUrl?: string;
  /** How long one Redis command may wait for its answer before it fails (REDIS_TIMEOUT_MS; engine/platform/redis.ts's default when unset). */
  redisTimeoutMs?: number;
  allowPrivateUrls: boolean;
  uploadMaxBytes: number;
  /** Largest JSON/form body accepted by endpoints that declare no limit of their own. */
  bodyMaxBytes: number;
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** Time allowed for a request's headers (HEADERS_TIMEOUT_MS), its whole request, headers and body (REQUEST_TIMEOUT_MS), and between two chunks of a body (BODY_IDLE_TIMEOUT_MS); never the answer. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  /** Slowest rate (bytes a second, on average over each BODY_IDLE_TIMEOUT_MS window) a body may arrive at (BODY_MIN_RATE; 0: no minimum). */
  bodyMinRate: number;
  /** Connections one client address may hold open at once, or requests in progress through a trusted proxy (CLIENT_MAX_CONNECTIONS; 0: no cap). */
  clientMaxConnections: number;
  /** The result cache's bounds: CACHE_MAX_BYTES for the in-process cache's keys and values, CACHE_MAX_ENTRY_BYTES for one value in either store. */
  cache: { maxBytes: number; maxEntryBytes: number };
  /** Log one line per request to stdout. */
  logRequests: boolean;
  /** TRUST_PROXY: which peers' X-Forwarded-For names the client (http/client-ip.ts); undefined: the direct peer is the client. */
  trustProxy?: TrustProxy;
  /** S3-compatible object storage for hosted files when S3_BUCKET is set; local disk under DATA_DIR otherwise. */
  s3?: S3Settings;
  /** The code pool's sizing and limits (handlers/cpu-pool.ts); unset fields take the pool's defaults. */
  cpu: CpuPoolSettings;
  /** The effects' render pool (effects/shared.ts) and photo enhancement (tools/remini.ts); unset fields take their defaults. */
  effects: EffectsSettings;
  /** MEMORY_PROFILE and what it decides that no pool setting above holds (settings/memory-profile.ts). */
  memory: MemorySettings;
  env: Readonly<Record<string, string>>;
}

/** Where hosted files go on an S3-compatible service. Credentials come from the standard AWS_* variables. */
export interface S3Settings {
  bucket: string;
  /** A non-AWS service (MinIO, R2, Ceph…); AWS's own endpoint for the region when absent. */
  endpoint?: string;
  region: string;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which most self-hosted services need. */
  forcePathStyle: boolean;
  /** Key prefix, empty or ending in `/`, so the store can share a bucket. */
  prefix: string;
  /** Public address of the bucket root (bucket website or CDN): `/files/:name` then redirects there. */
  publicUrl?: string;
}

/**
 * Checked here with the rest of the environment so a typo stops the boot, though the
 * pools that use these start only on first use.
 */
export interface CpuPoolSettings {
  /** CPU_THREADS: worker threads (default: cores). */
  threads?: number;
  /** CPU_QUEUE: runs allowed to wait (default: 8 per thread). */
  queue?: number;
  /** CPU_TASK_MS: wall-clock limit of one run once started. */
  taskMs?: number;
  /** CPU_TASK_MEMORY_MB: V8 heap per worker. */
  taskMemoryMb?: number;
}

export interface EffectsSettings {
  /** EFFECTS_THREADS: render workers (default: cores). */
  threads?: number;
  /** EFFECTS_QUEUE: renders allowed to wait per worker. */
  queue?: number;
  /** ENHANCE_MAX_PIXELS: a photo is reduced to this many pixels before enhancement. */
  enhanceMaxPixels?: number;
  /** UPSCALE_THREADS: onnxruntime threads for one neural upscale or enhancement (default: cores, at most 4). */
  upscaleThreads?: number;
}

export interface MemorySettings {
  profile: MemoryProfile;
  /** WORKER_IDLE_MS: a pool's worker that has had nothing to do for this long exits, and its memory goes with it. */
  workerIdleMs: number;
  /** OCR_IDLE_MS: the same for a language's Tesseract worker, which takes 1–3 s to start again. */
  ocrIdleMs: number;
  /** RENDER_CACHE_MAX_BYTES: finished renders kept for identical requests, in bytes. */
  renderCacheMaxBytes: number;
  /** The neural upscaler's tiles and arena (the profile's; no variable of its own). */
  neural: NeuralMemory;
}

/** The result cache's bounds when CACHE_MAX_BYTES / CACHE_MAX_ENTRY_BYTES are unset: 64 MiB in all, 1 MiB per value. */
export const DEFAULT_CACHE_BOUNDS = Object.freeze({ maxBytes: MEMORY_PROFILES.default.cacheMaxBytes, maxEntryBytes: 1024 * 1024 });

/** The shared test key when TEST_API_KEY is unset; documented in docs/using/keys.md. */
export const DEFAULT_TEST_API_KEY = 'manifold-test';
/** TEST_API_KEY's value that switches the shared test key off. */
export const TEST_KEY_OFF = 'off';
export const API_VERSION = '3.0.4';

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(source)) if (v !== undefined && v !== '') env[k] = v;
  const port = nonNegativeInt(env, 'PORT', 3000);
  const profile = memoryProfile(env);
  const memory = MEMORY_PROFILES[profile];
  // a placeholder admin or metrics token stops the boot, as a typo in a number does
  checkSecrets(env);
  return Object.freeze({
    port,
    host: env.HOST ?? '0.0.0.0',
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    endpointsDir: env.ENDPOINTS_DIR && path.resolve(env.ENDPOINTS_DIR),
    creator: env.CREATOR ?? 'Manifold',
    version: API_VERSION,
    testApiKey: env.TEST_API_KEY === TEST_KEY_OFF ? undefined : (env.TEST_API_KEY ?? DEFAULT_TEST_API_KEY),
    adminToken: env.ADMIN_TOKEN,
    testKeyRpm: nonNegativeInt(env, 'TEST_KEY_RPM', 30),
    personalKeyRpm: nonNegativeInt(env, 'PERSONAL_KEY_RPM', 300),
    testKeyDaily: optionalPositiveInt(env, 'TEST_KEY_DAILY'),
    personalKeyDaily: optionalPositiveInt(env, 'PERSONAL_KEY_DAILY'),
    testKeyMaxJobs: positiveInt(env, 'TEST_KEY_MAX_JOBS', 2),
    personalKeyMaxJobs: positiveInt(env, 'PERSONAL_KEY_MAX_JOBS', 20),
    redisUrl: env.REDIS_URL,
    redisTimeoutMs: optionalPositiveInt(env, 'REDIS_TIMEOUT_MS'),
    allowPrivateUrls: env.ALLOW_PRIVATE_URLS === '1',
    uploadMaxBytes: nonNegativeInt(env, 'UPLOAD_MAX_BYTES', 104857600),
    bodyMaxBytes: nonNegativeInt(env, 'BODY_MAX_BYTES', 1048576),
    tlsCertFile: env.TLS_CERT_FILE,
    tlsKeyFile: env.TLS_KEY_FILE,
    headersTimeoutMs: nonNegativeInt(env, 'HEADERS_TIMEOUT_MS', 20_000),
    requestTimeoutMs: nonNegativeInt(env, 'REQUEST_TIMEOUT_MS', 300_000),
    bodyIdleTimeoutMs: nonNegativeInt(env, 'BODY_IDLE_TIMEOUT_MS', 15_000),
    bodyMinRate: nonNegativeInt(env, 'BODY_MIN_RATE', 1024),
    clientMaxConnections: nonNegativeInt(env, 'CLIENT_MAX_CONNECTIONS', 100),
    cache: Object.freeze({
      maxBytes: positiveInt(env, 'CACHE_MAX_BYTES', memory.cacheMaxBytes),
      maxEntryBytes: positiveInt(env, 'CACHE_MAX_ENTRY_BYTES', DEFAULT_CACHE_BOUNDS.maxEntryBytes),
    }),
    logRequests: env.LOG_REQUESTS !== '0',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    s3: env.S3_BUCKET ? s3Settings(env) : undefined,
    cpu: Object.freeze({
      threads: optionalPositiveInt(env, 'CPU_THREADS') ?? memory.threads,
      queue: optionalPositiveInt(env, 'CPU_QUEUE'),
      taskMs: optionalPositiveInt(env, 'CPU_TASK_MS'),
      taskMemoryMb: optionalPositiveInt(env, 'CPU_TASK_MEMORY_MB'),
    }),
    effects: Object.freeze({
      threads: optionalPositiveInt(env, 'EFFECTS_THREADS') ?? memory.threads,
      queue: optionalPositiveInt(env, 'EFFECTS_QUEUE'),
      enhanceMaxPixels: optionalPositiveInt(env, 'ENHANCE_MAX_PIXELS'),
      upscaleThreads: optionalPositiveInt(env, 'UPSCALE_THREADS') ?? memory.threads,
    }),
    memory: Object.freeze({
      profile,
      workerIdleMs: positiveInt(env, 'WORKER_IDLE_MS', memory.workerIdleMs),
      ocrIdleMs: positiveInt(env, 'OCR_IDLE_MS', memory.ocrIdleMs),
      renderCacheMaxBytes: positiveInt(env, 'RENDER_CACHE_MAX_BYTES', memory.renderCacheMaxBytes),
      neural: memory.neural,
    }),
    env: Object.freeze(env),
  });
}

function s3Settings(env: Record<string, string>): S3Settings {
  const prefix = (env.S3_PREFIX ?? '').replace(/^\/+|\/+$/g, '');
  return Object.freeze({
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION ?? env.AWS_REGION ?? 'us-east-1',
    // custom endpoints are mostly self-hosted services without virtual-host DNS
    forcePathStyle: env.S3_FORCE_PATH_STYLE ? env.S3_FORCE_PATH_STYLE === '1' : Boolean(env.S3_ENDPOINT),
    prefix: prefix && `${prefix}/`,
    publicUrl: env.S3_PUBLIC_URL?.replace(/\/+$/, ''),
  });
}

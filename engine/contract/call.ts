import type { Readable } from 'node:stream';
import type { Config } from '../platform/config.js';
import type { HttpClient } from '../platform/http/client.js';
import type { UpstreamRegistry } from '../catalog/upstreams.js';
import type { ResultCache } from '../platform/cache.js';
import type { CostClass, Endpoint } from '../core/manifest-types.js';
import type { FileStore, OpenedFile } from '../platform/storage/files.js';
import type { Tier } from '../platform/auth/tiers.js';
import type { EngineScope } from '../platform/scope.js';
import type { EngineDatabase } from '../platform/db/engine-database.js';

/**
 * The one interface every adapter kind implements. An adapter turns validated
 * params into data; the engine owns envelopes, headers, auth, limits and caching.
 * Adapters never import each other.
 */
export interface AdapterKind<C = any> {
  /** The `adapter.kind` value manifests use. */
  kind: string;
  /** The cost class of its endpoints unless a manifest names one (`cost`). */
  cost: CostClass;
  /** JSON Schema of `adapter.config`; checked at boot and by `npm run lint:endpoints`. */
  configSchema: object;
  /**
   * Why endpoints with this config cannot run in this environment (a missing env var,
   * binary or upstream), or undefined when they can. Evaluated once at boot.
   */
  unavailable?(config: C, setup: AdapterSetup): string | undefined;
  /**
   * A check of the config beyond its schema, when manifests are compiled and linted
   * (e.g. that a named module exists): `[field under adapter.config, problem]`.
   */
  verify?(config: C): [string, string] | undefined;
  /**
   * Build the endpoint's handler, once, on the endpoint's first call (at boot for lint):
   * an adapter with heavy libraries imports them here, so a boot loads none of them.
   */
  create(config: C, setup: AdapterSetup): EndpointHandler | Promise<EndpointHandler>;
}

/** What an adapter may use while it builds a handler. */
export interface AdapterSetup {
  config: Config;
  endpoint: Endpoint;
  /** Directory of the manifest file, for data files named relative to it. */
  manifestDir: string;
  http: HttpClient;
  upstreams: UpstreamRegistry;
  cache: ResultCache;
  /** Hosted files (content-addressed, served at /files/<name>). */
  files: FileStore;
  /**
   * What this engine starts on first use and stops when it closes (worker pools, Chromium,
   * OCR workers, the Apertium server, conversation memory): handed in, so two engines in
   * one process share none of it.
   */
  scope: EngineScope;
  /** This engine's database (short links, temp mail, the media cache, conversation memory): handed in, like the scope. */
  database: EngineDatabase;
}

/** What a pool or a long-lived service needs to find its engine's instance: the engine's scope, and its settings. */
export interface EngineServices {
  config?: Config;
  scope: EngineScope;
}

export interface Call {
  /** Validated, coerced params with defaults applied. */
  params: Record<string, any>;
  /**
   * Aborted on client disconnect or when the endpoint's timeout elapses. Made on first
   * read, so an adapter that answers from memory should not read (or destructure) it.
   */
  signal: AbortSignal;
  /**
   * Aborted when the caller withdrew the work itself: a job cancelled (POST /api/jobs/:id/cancel).
   * `signal` aborts then too, and also when a client disconnects or the time runs out; work
   * that outlives its caller on purpose (a media download shared with other callers and
   * cached for the next) stops on this one, once no other caller waits for it. Absent on
   * synchronous calls.
   */
  cancelled?: AbortSignal;
  /** Origin for links handed out (PUBLIC_BASE_URL). */
  baseUrl: string;
  requestId: string;
  /** The API key the request counts against (per-key state such as AI session memory). */
  caller: Caller;
  /** Files from a multipart body, by field name. */
  files?: Record<string, UploadedFile>;
  /**
   * Report how far the work is, 0–100, and what it is doing (`downloading`, `converting`):
   * shown to the client at GET /api/jobs/:id when the call runs as a job. Absent on a
   * plain synchronous call, so callers write `call.progress?.(40, 'converting')`.
   */
  progress?: (percent: number, stage?: string) => void;
  /**
   * Report work the key pays for: AI tokens the provider counted for this call
   * (usage.prompt_tokens and completion_tokens), seconds of media downloaded or converted
   * (as yt-dlp and ffmpeg report the media's duration). Added to the key's usage and the
   * metrics; in a job, when the job has finished.
   */
  meter?: (work: Metered) => void;
  /** Who is asking (for request-info tools): address as Koa sees it (TRUST_PROXY) and raw headers — never log these. */
  client?: { ip: string; headers: Record<string, string | string[] | undefined> };
}

/** What Call.meter takes; each figure adds to what the call reported before. */
export interface Metered {
  prompt?: number;
  completion?: number;
  mediaSeconds?: number;
}

/**
 * Who is calling: an opaque, stable id of the API key — never the key itself or its
 * hash — and the key's tier. Public endpoints (no key) use `ip:<client address>`.
 */
export interface Caller {
  keyId: string;
  tier: Tier;
}

export interface UploadedFile {
  path: string;
  size: number;
  name: string;
  clientType?: string;
}

export type Output =
  /** `text`: the result's JSON, when the adapter already holds it (a data set's item, serialised once): sent as it is. */
  | { type: 'json'; result: unknown; text?: string }
  | {
      type: 'binary';
      body: Buffer | Readable;
      contentType: string;
      /** Sent as Content-Disposition: attachment when set. */
      filename?: string;
      size?: number;
      headers?: Record<string, string>;
    }
  /** A stored file (e.g. a cached download), sent with byte ranges honoured so players can seek. */
  | { type: 'file'; file: OpenedFile; contentType: string; filename?: string }
  | { type: 'redirect'; location: string; status?: 301 | 302 | 307 | 308 };

export type EndpointHandler = (call: Call) => Promise<Output>;

export const json = (result: unknown, text?: string): Output => (text === undefined ? { type: 'json', result } : { type: 'json', result, text });

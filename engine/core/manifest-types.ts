/** The shape of a manifest file after YAML parsing (see manifest.schema.json for meaning). */
export interface Manifest {
  path: string;
  aliases?: string[];
  method?: HttpMethod;
  category: Category;
  summary: string;
  description?: string;
  tags?: string[];
  body?: BodyType[];
  public?: boolean;
  params?: Record<string, ParamSpec>;
  adapter: { kind: string; config?: Record<string, unknown> };
  response?: ResponseKind;
  /** Long-running: also runs as a job (`async=true`, `callback_url`); see manifest.schema.json. */
  async?: boolean;
  cost?: CostClass;
  resultSchema?: object;
  /** Where the envelope also carries `result` or one of its fields, for clients that read it there (`results`, `lyrics=lyrics`); see manifest.schema.json. */
  resultAlso?: string | string[];
  /** Parameter values a call made as one of the genre's hosts gets when it does not send them (`/as/<host>`; endpoints/data/hosts.yaml). */
  dialects?: Record<string, Record<string, unknown>>;
  limits?: Limits;
  requires?: { env?: string[]; bin?: string[]; npm?: string[]; anyOf?: { env?: string[]; bin?: string[] }[] };
  examples: Example[];
  family?: { items?: object[]; data?: string; dir?: string; where?: Record<string, unknown> };
  deprecated?: boolean;
}

/** One more place of the envelope for the result: `at` (key path under the envelope) holds the result's value at `from` ([]: the whole result). */
export interface ResultAlso {
  at: string[];
  from: string[];
}

/** Environment variables and executables that must all be present. */
export interface Requirement {
  env: string[];
  bin: string[];
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type BodyType = 'json' | 'form' | 'multipart';
export type ResponseKind = 'json' | 'binary' | 'streamable';
/** How an endpoint's work weighs on the server (see manifest.schema.json `cost`). */
export type CostClass = 'light' | 'io' | 'cpu' | 'heavy';
export type ParamSource = 'query' | 'body' | 'path' | 'file';
export const CATEGORIES = ['ai', 'download', 'tools', 'search', 'effects', 'fun', 'sports', 'checker', 'tempgen'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface ParamSpec {
  in?: ParamSource;
  required?: boolean;
  aliases?: string[];
  secret?: boolean;
  schema: Record<string, unknown>;
  description: string;
  example?: unknown;
}

export interface Limits {
  timeoutMs?: number;
  cacheTtl?: number;
  concurrency?: number;
  queue?: number;
  bodyBytes?: number;
  taskMs?: number;
}

export interface Fixture {
  upstream: string;
  method?: string;
  path: string;
  query?: Record<string, unknown>;
  /** Query names the request must carry bare, without `=`. */
  flags?: string[];
  body?: Record<string, unknown>;
  status?: number;
  headers?: Record<string, string>;
  file?: string;
  json?: unknown;
  delayMs?: number;
}

export interface Example {
  name?: string;
  params: Record<string, unknown>;
  files?: Record<string, string>;
  env?: Record<string, string>;
  fixtures?: Fixture[];
  expect: {
    status?: number;
    error?: string;
    result?: object;
    contentType?: string;
    image?: { format?: string; width?: number; height?: number; hasAlpha?: boolean; pages?: number };
    document?: { type: 'pdf' | 'zip'; minPages?: number; entries?: string[] };
  };
}

/** A manifest expanded (one per family item) and normalised: what the engine serves. */
export interface Endpoint {
  /** Stable id: `METHOD path`. */
  id: string;
  method: HttpMethod;
  path: string;
  aliases: string[];
  category: Category;
  summary: string;
  description: string;
  tags: string[];
  body: BodyType[];
  public: boolean;
  /** Param names (and aliases) whose values are redacted from logs. */
  secretParams: string[];
  /**
   * A POST endpoint that also answers GET with its params in the query: clients of this
   * genre call every path with GET. Not for file uploads, nor for secret params (which
   * would then sit in URLs and proxy logs).
   */
  alsoGet: boolean;
  params: Record<string, Required<Pick<ParamSpec, 'in' | 'required' | 'aliases'>> & ParamSpec>;
  adapter: { kind: string; config: Record<string, unknown> };
  response: ResponseKind;
  /** Long-running: takes `async=true` and `callback_url`, and runs on the job workers (engine/pipeline/jobs). */
  async: boolean;
  /** The manifest's cost class; when it names none, the adapter kind's default, filled in when adapter configs are checked (registry.ts). */
  cost?: CostClass;
  resultSchema?: object;
  /** Envelope key paths that also carry `result` (or a field of it), as the genre's clients read them. */
  resultAlso?: ResultAlso[];
  /** By dialect (endpoints/data/hosts.yaml): the parameter values a call made as that host gets when it does not send them. */
  dialects?: Record<string, Record<string, unknown>>;
  limits: Required<Pick<Limits, 'timeoutMs' | 'cacheTtl'>> & Limits;
  /** All of `env` and `bin`, and (when given) one of the `anyOf` alternatives, each complete. */
  /** `npm`: packages of the optional features (optional/*) it imports, which a host may leave out. */
  requires: Requirement & { npm: string[]; anyOf?: Requirement[] };
  examples: Example[];
  deprecated: boolean;
  /** Manifest file it came from, relative to the endpoints root. */
  file: string;
  /** Absolute directory of that file (fixtures and data are relative to it). */
  dir: string;
}

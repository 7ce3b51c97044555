import type { Manifest, Param, Example } from './manifest.generated.js';

/**
 * The shape of a manifest file after YAML parsing: generated from manifest.schema.json
 * (scripts/schema-types.ts, at build), with the names the engine uses for its parts.
 */
export type { Manifest, Example };
export type ParamSpec = Param;
export type Limits = NonNullable<Manifest['limits']>;
export type Fixture = NonNullable<Example['fixtures']>[number];

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

export type HttpMethod = NonNullable<Manifest['method']>;
export type BodyType = NonNullable<Manifest['body']>[number];
export type ResponseKind = NonNullable<Manifest['response']>;
/** How an endpoint's work weighs on the server (see manifest.schema.json `cost`). */
export type CostClass = NonNullable<Manifest['cost']>;
export type ParamSource = NonNullable<ParamSpec['in']>;
export type Category = Manifest['category'];
/** The categories as a list, in the schema's order (a category the schema lacks does not typecheck here). */
export const CATEGORIES = ['ai', 'download', 'tools', 'search', 'effects', 'fun', 'sports', 'checker', 'tempgen'] as const satisfies readonly Category[];

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

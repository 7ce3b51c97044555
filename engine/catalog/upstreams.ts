import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from '../core/yaml.js';
import schema from './upstreams.schema.json' with { type: 'json' };
import type { ValidateFunction } from 'ajv';
import { ManifestError, describe } from './schema-check.js';
import type { Sources } from './sources.js';
import { upstreamStatusOf, type BufferedBody, type HttpClient, type StreamedBody, type UpstreamRequest } from '../platform/http/client.js';
import { notFound, unavailable } from '../core/errors.js';
import type { UpstreamSpec } from './upstreams.generated.js';
import { ajvFor } from '../core/ajv.js';
import { fillPlaceholders, PLACEHOLDER_SYNTAX } from '../core/placeholders.js';

/** An upstream's default budget for one call, retries included, when its spec names none. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 8000;

/**
 * One call to a named upstream: the registry owns the base URL, the spec's headers and
 * query (keys), the timeout policy and the reason it cannot be called; the caller says
 * only what differs per call.
 */
export interface UpstreamCall {
  /** Appended to the base URL; starts with `/` (encode path segments yourself). */
  path?: string;
  method?: UpstreamRequest['method'];
  /** Merged over the spec's query; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Merged over the spec's headers. */
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Budget for this call; default the spec's `timeoutMs` (else 8 s). */
  timeoutMs?: number;
  /** An upper bound on that budget (the endpoint's own limit): the call gets the smaller of the two. */
  limitMs?: number;
  /**
   * Bare query flags appended after the query (`?q=x&raw`): got writes every `searchParams`
   * entry as `name=`, which some upstreams read as a different switch.
   */
  flags?: string[];
  maxBytes?: number;
  retries?: number;
  /** Another origin of the same service (e.g. a plan-specific host); default the configured base URL. */
  baseUrl?: string;
  /**
   * The message of the 404 `not_found` answered when the upstream says 404 (or one of
   * `notFoundStatuses`): for a single item, the upstream's "no such thing" is the client's
   * answer, not a 502.
   */
  notFound?: string;
  /** Other upstream statuses (4xx) that mean the same, with `notFound`: some APIs answer 400 when nothing passes their filters. */
  notFoundStatuses?: number[];
}

/** An upstream as declared in endpoints/upstreams/<name>.yaml: generated from upstreams.schema.json (scripts/schema-types.ts, at build). */
export type { UpstreamSpec };

/** How an upstream is called: HTTP (the default) or a protocol of its own. */
export type UpstreamProtocol = NonNullable<UpstreamSpec['protocol']>;

/** An upstream resolved against the configuration. */
export interface Upstream {
  spec: UpstreamSpec;
  /** Why it can't be called (unset base URL or key), or undefined. */
  missing?: string;
  baseUrl: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  /** dns/whois: each role's configured server(s), or undefined when unset. */
  servers: Record<string, string | undefined>;
}

let validate: ValidateFunction<UpstreamSpec> | undefined;

/** Read and check every upstream spec in dir (noting what it read for the compiled registry). */
export function loadUpstreamSpecs(dir: string, sources?: Sources): UpstreamSpec[] {
  sources?.dir(dir); // also when missing: creating it must invalidate the compiled registry
  if (!fs.existsSync(dir)) return [];
  validate ??= ajvFor('as-written').compile<UpstreamSpec>(schema);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => {
      const rel = path.join('upstreams', f);
      sources?.file(path.join(dir, f));
      const spec = parseYaml(fs.readFileSync(path.join(dir, f), 'utf8'));
      if (!validate!(spec)) throw new ManifestError(rel, ...describe(validate!.errors![0]));
      if (`${spec.name}.yaml` !== f) throw new ManifestError(rel, 'name', `must match the file name (${f})`);
      return spec;
    });
}

/** Fill ${VAR}s from env; undefined when any of them is unset. */
function fill(template: string, env: Readonly<Record<string, string>>): string | undefined {
  let complete = true;
  const out = fillPlaceholders(template, PLACEHOLDER_SYNTAX.env, (name) => {
    if (env[name] === undefined) complete = false;
    return env[name];
  });
  return complete ? (out as string) : undefined;
}

function fillAll(map: Record<string, string> | undefined, env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map ?? {})) {
    const filled = fill(v, env);
    if (filled !== undefined) out[k] = filled;
  }
  return out;
}

/** The answer, with an upstream "no such thing" status turned into 404 `not_found` when the call names its message. */
function notFoundOn<T>(call: UpstreamCall, answer: Promise<T>): Promise<T> {
  const message = call.notFound;
  if (!message) return answer;
  return answer.catch((error: unknown) => {
    const status = upstreamStatusOf(error);
    if (status === 404 || (status !== undefined && call.notFoundStatuses?.includes(status))) throw notFound(message);
    throw error;
  });
}

/** The query written into the URL with the bare flags appended (see `UpstreamCall.flags`). */
function withFlags(url: string, query: Record<string, string | number | boolean>, flags: string[]): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) search.append(k, String(v));
  const parts = [search.toString(), ...flags.map(encodeURIComponent)].filter(Boolean);
  return `${url}${url.includes('?') ? '&' : '?'}${parts.join('&')}`;
}

export class UpstreamRegistry {
  private readonly byName = new Map<string, Upstream>();

  /** `http` makes the calls (`call`, `text`, `buffer`, `stream`); without it the registry only describes upstreams. */
  constructor(
    specs: UpstreamSpec[],
    env: Readonly<Record<string, string>>,
    private readonly http?: HttpClient,
  ) {
    for (const spec of specs) {
      const baseUrl = spec.baseUrl ? (env[spec.baseUrl.env] ?? spec.baseUrl.default ?? '').replace(/\/+$/, '') : '';
      // a dns/whois upstream has no base URL to miss: an unset server role falls back to the protocol's default
      const unset = [...(baseUrl || !spec.baseUrl ? [] : [spec.baseUrl.env]), ...(spec.requires ?? []).filter((v) => env[v] === undefined)];
      this.byName.set(spec.name, {
        spec,
        baseUrl,
        missing: unset.length ? `${unset.join(', ')} not set` : undefined,
        headers: fillAll(spec.headers, env),
        query: fillAll(spec.query, env),
        servers: Object.fromEntries(Object.entries(spec.servers ?? {}).map(([role, source]) => [role, env[source.env] || source.default])),
      });
    }
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): Upstream {
    const upstream = this.byName.get(name);
    if (!upstream) throw new Error(`unknown upstream "${name}"`);
    return upstream;
  }

  all(): Upstream[] {
    return [...this.byName.values()];
  }

  /** Why `name` cannot be called here (an unset variable, or no such upstream), or undefined when it can. */
  unavailable(name: string): string | undefined {
    const upstream = this.byName.get(name);
    if (!upstream) return `unknown upstream ${name}`;
    return upstream.missing && `${name}: ${upstream.missing}`;
  }

  /** The servers of a dns/whois upstream by role (undefined: the role is unset) and its budget per query. */
  servers(name: string): { servers: Record<string, string | undefined>; timeoutMs: number } {
    const upstream = this.get(name);
    if ((upstream.spec.protocol ?? 'http') === 'http') throw new Error(`upstream "${name}" is an HTTP upstream; call it with call/text/buffer/stream`);
    return { servers: upstream.servers, timeoutMs: upstream.spec.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS };
  }

  /** The JSON answer of one call (502/504 on failure, 503 when the upstream is not configured, 404 as `request.notFound` says). */
  call<T = unknown>(name: string, request: UpstreamCall = {}): Promise<T> {
    return notFoundOn(request, this.client().upstreamJson<T>(this.request(name, request)));
  }

  /** The body as text, in the charset the response declares. */
  text(name: string, request: UpstreamCall = {}): Promise<string> {
    return notFoundOn(request, this.client().upstreamText(this.request(name, request)));
  }

  buffer(name: string, request: UpstreamCall = {}): Promise<BufferedBody> {
    return notFoundOn(request, this.client().upstreamBuffer(this.request(name, request)));
  }

  stream(name: string, request: UpstreamCall = {}): Promise<StreamedBody> {
    return notFoundOn(request, this.client().upstreamStream(this.request(name, request)));
  }

  /** The full request for one call: URL, merged headers and query, the timeout policy. */
  request(name: string, call: UpstreamCall): UpstreamRequest {
    const why = this.unavailable(name);
    if (why) throw unavailable(why);
    const upstream = this.byName.get(name)!;
    if (!upstream.spec.baseUrl) throw new Error(`upstream "${name}" speaks ${upstream.spec.protocol}, not HTTP`);
    const query: Record<string, string | number | boolean> = { ...upstream.query };
    for (const [key, value] of Object.entries(call.query ?? {})) if (value !== undefined) query[key] = value;
    const url = (call.baseUrl?.replace(/\/+$/, '') ?? upstream.baseUrl) + (call.path ?? '');
    const budget = call.timeoutMs ?? upstream.spec.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    return {
      upstream: name,
      url: call.flags?.length ? withFlags(url, query, call.flags) : url,
      method: call.method,
      searchParams: !call.flags?.length && Object.keys(query).length ? query : undefined,
      headers: call.headers ? { ...upstream.headers, ...call.headers } : upstream.headers,
      json: call.json,
      form: call.form,
      body: call.body,
      timeoutMs: call.limitMs === undefined ? budget : Math.min(budget, call.limitMs),
      signal: call.signal,
      maxBytes: call.maxBytes,
      retries: call.retries,
    };
  }

  private client(): HttpClient {
    if (!this.http) throw new Error('this upstream registry has no HTTP client (describe-only)');
    return this.http;
  }
}

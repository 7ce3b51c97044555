import type { ErrorObject, ValidateFunction } from 'ajv';
import { ajvFor } from '../core/ajv.js';
import { ApiError, invalidParameter, missingParameter } from '../core/errors.js';
import type { Endpoint } from '../core/manifest-types.js';
import { implicitParamsOf } from '../core/implicit-params.js';

/**
 * Parameter validation, with the engine's `request` Ajv (core/ajv.ts: query strings are
 * coerced to the declared types and defaults are filled in). Validators are cached by the
 * canonical text of their schema, so the hundreds of effect endpoints sharing a param
 * block compile it once.
 */
const compiled = new Map<string, ValidateFunction>();

/** How many distinct param schemas were compiled (for tests and boot diagnostics). */
export const compiledSchemaCount = () => compiled.size;

/** The object schema the engine validates for an endpoint (also used by OpenAPI). */
export function paramsSchema(endpoint: Endpoint): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(endpoint.params)) {
    if (spec.in === 'file') continue;
    properties[name] = spec.schema;
    if (spec.required) required.push(name);
  }
  for (const [name, param] of implicitParamsOf(endpoint)) properties[name] = param.schema;
  return { type: 'object', properties, required };
}

const byEndpoint = new WeakMap<Endpoint, ValidateFunction>();

export function validatorFor(endpoint: Endpoint): ValidateFunction {
  const known = byEndpoint.get(endpoint);
  if (known) return known;
  const schema = paramsSchema(endpoint);
  const key = canonical(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajvFor('request').compile(schema);
    compiled.set(key, validate);
  }
  byEndpoint.set(endpoint, validate);
  return validate;
}

/** Stable JSON (sorted keys) so equal schemas share one compiled validator. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface RawInput {
  query: Record<string, unknown>;
  /** The parsed body; params read from the body fall back to the query string. */
  body: Record<string, unknown>;
  path: Record<string, string>;
}

/** Where one declared param is read from, worked out once per endpoint. */
interface ParamSource {
  name: string;
  from: 'query' | 'body' | 'path';
  /** The canonical name, then its aliases. */
  keys: string[];
  list: boolean;
}

/** Where an endpoint's params are read from: its declared params, then the implicit ones it takes (the key aside). */
interface ParamSources {
  declared: ParamSource[];
  implicit: string[];
}

const sourcesByEndpoint = new WeakMap<Endpoint, ParamSources>();

function sourcesOf(endpoint: Endpoint): ParamSources {
  let sources = sourcesByEndpoint.get(endpoint);
  if (!sources) {
    sources = {
      declared: Object.entries(endpoint.params)
        .filter(([, spec]) => spec.in !== 'file')
        .map(([name, spec]) => ({
          name,
          from: spec.in === 'query' || spec.in === 'path' ? spec.in : 'body',
          keys: [name, ...spec.aliases],
          list: spec.schema.type === 'array',
        })),
      // looked up here once, not per request (implicitParamsOf builds a key string to find its list)
      implicit: implicitParamsOf(endpoint).map(([name]) => name),
    };
    sourcesByEndpoint.set(endpoint, sources);
  }
  return sources;
}

/** A body field, else the query param of that name (a body value wins even when empty). */
const bodyOrQuery = (input: RawInput, key: string): unknown => (Object.hasOwn(input.body, key) ? input.body[key] : input.query[key]);

/** Collect declared params from their sources (canonical name first, then aliases). */
export function collectParams(endpoint: Endpoint, input: RawInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const { declared, implicit } = sourcesOf(endpoint);
  for (const source of declared) {
    for (const key of source.keys) {
      const raw = source.from === 'query' ? input.query[key] : source.from === 'path' ? input.path[key] : bodyOrQuery(input, key);
      const value = present(raw, source.list);
      if (value !== undefined) {
        out[source.name] = value;
        break;
      }
    }
  }
  for (const name of implicit) {
    const value = present(input.query[name] ?? bodyOrQuery(input, name), false);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** Empty strings count as absent (clients send `url=`); repeated query keys keep the first unless the param is a list. */
function present(value: unknown, list: boolean): unknown {
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value) && !list) return present(value[0], false);
  if (list && typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return value;
}

/** A declared query parameter of a built-in route (pipeline/builtin.ts): its JSON schema, documented in the OpenAPI document. */
export interface QueryParamSpec {
  description: string;
  schema: Record<string, unknown>;
}

const byQuerySpec = new WeakMap<object, ValidateFunction>();

/**
 * A built-in route's query parameters, collected (empty values absent, the first of a
 * repeated key) and validated with the same ajv instance as manifest params: coerced,
 * defaults filled in, 400 missing_parameter / invalid_parameter naming the parameter.
 */
export function validateQuery(spec: Readonly<Record<string, QueryParamSpec>>, query: Record<string, unknown>): Record<string, unknown> {
  let validate = byQuerySpec.get(spec);
  if (!validate) {
    const properties = Object.fromEntries(Object.entries(spec).map(([name, p]) => [name, p.schema]));
    const schema = { type: 'object', properties };
    const key = canonical(schema);
    validate = compiled.get(key) ?? ajvFor('request').compile(schema);
    compiled.set(key, validate);
    byQuerySpec.set(spec, validate);
  }
  const params: Record<string, unknown> = {};
  for (const name of Object.keys(spec)) {
    const value = present(query[name], false);
    if (value !== undefined) params[name] = value;
  }
  if (!validate(params)) throw toApiError(validate.errors![0]);
  return params;
}

export function validateParams(endpoint: Endpoint, params: Record<string, unknown>): Record<string, unknown> {
  const validate = validatorFor(endpoint);
  if (!validate(params)) throw toApiError(validate.errors![0]);
  for (const name in params) if (hasNul(params[name])) throw invalidParameter(name, 'must not contain the NUL character (U+0000)');
  return params;
}

/**
 * A NUL in a string or a list of strings. No parameter means one, and it breaks what the
 * text reaches: a child's argument list (yt-dlp: Node refuses it), C strings in the font
 * and image libraries. Refused here, once for every endpoint, instead of 500s in each.
 */
const hasNul = (value: unknown): boolean => (typeof value === 'string' ? value.includes('\0') : Array.isArray(value) && value.some(hasNul));

function toApiError(error: ErrorObject): ApiError {
  const extra = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return missingParameter(String(extra.missingProperty));
  const param = error.instancePath.split('/')[1] || String(extra.additionalProperty ?? 'params');
  if (error.keyword === 'enum') return invalidParameter(param, `must be one of: ${(extra.allowedValues as unknown[]).join(', ')}`);
  if (error.keyword === 'format') return invalidParameter(param, `must be a valid ${extra.format}`);
  const problem = error.message ?? 'is invalid';
  return invalidParameter(param, problem);
}

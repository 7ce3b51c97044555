import type { Config } from '../platform/config.js';
import type { ResultAlso } from '../core/manifest-types.js';
import { ApiError, invalidBody, isStackOverflow, tooComplex } from '../core/errors.js';
import type { ErrorCode } from '../core/error-codes.js';

/** The two body shapes every JSON answer takes (docs/using/contract.md). */
export const success = (config: Config, result: unknown) => ({ status: 200, success: true, creator: config.creator, result });

/**
 * One engine's success envelope as text, made once where the engine is created (createEngine
 * hands it to the pipeline, which answers JSON through respond): the envelope's constant head,
 * the text of success(config, …) up to its result, is worked out here once.
 */
export class SuccessEnvelope {
  readonly #config: Config;
  readonly #prefix: string;

  constructor(config: Config) {
    this.#config = config;
    this.#prefix = JSON.stringify(success(config, null)).slice(0, -'null}'.length);
  }

  /**
   * JSON.stringify(success(config, result)), byte for byte, without building the
   * envelope object: only the result is serialised (not even that when `known`, the
   * result's JSON, is given: an adapter that serialised it once). `also` (an endpoint's
   * resultAlso) adds the result, or one of its fields, at more key paths after `result`
   * (`results`, `results.data`, `lyrics`): the whole result is serialised once.
   */
  json(result: unknown, also?: readonly ResultAlso[], known?: string): string {
    const text = known ?? JSON.stringify(result);
    // undefined, a function or a symbol: JSON leaves the property out, so let it do so
    if (text === undefined) return JSON.stringify(success(this.#config, result));
    if (also === undefined) return `${this.#prefix}${text}}`;
    let more = '';
    for (const { at, from } of also) {
      const value = from.length === 0 ? text : JSON.stringify(fieldOf(result, from));
      // a field the result lacks is left out, as JSON.stringify leaves out an undefined property
      if (value === undefined) continue;
      more += `,${at.map((key) => `${JSON.stringify(key)}:`).join('{')}${value}${'}'.repeat(at.length - 1)}`;
    }
    return `${this.#prefix}${text}${more}}`;
  }
}

const fieldOf = (value: unknown, path: string[]): unknown =>
  path.reduce<unknown>((v, key) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined), value);

export const failure = (config: Config, error: ApiError) => ({
  status: error.status,
  success: false,
  creator: config.creator,
  error: error.code,
  message: error.message,
  ...(error.details ? { details: error.details } : {}),
});

/** The code (whose row has the same status) and fallback message for a 4xx that Koa or its body parser threw. */
const CODES: Record<number, [ErrorCode, string]> = {
  400: ['invalid_parameter', 'The request is malformed'],
  401: ['invalid_api_key', 'The API key is invalid'],
  403: ['forbidden', 'Forbidden'],
  404: ['not_found', 'Not found'],
  405: ['method_not_allowed', 'Method not allowed'],
  408: ['request_timeout', 'The request body was not received in time'],
  413: ['payload_too_large', 'The request body is too large'],
  415: ['unsupported_media_type', 'Unsupported request body type'],
  429: ['rate_limited', 'Too many requests'],
};

/**
 * Anything thrown → an ApiError. Errors from Koa and its body parser (http-errors with
 * `expose`) keep their status (one without a row in CODES answers 400); everything else
 * is a 500 whose details stay in the log.
 */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { status?: number; statusCode?: number; expose?: boolean; message?: string; type?: string };
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const [code, fallback] = CODES[status] ?? ['invalid_parameter', 'Bad request'];
    if (e.type === 'entity.parse.failed') return invalidBody('not valid JSON');
    return new ApiError(code, e.expose && e.message ? sentence(e.message) : fallback);
  }
  // only input nests deep enough to exhaust the stack (JSON, markdown, HTML): the client's fault, not a bug
  if (isStackOverflow(err)) return tooComplex('the input is nested too deeply');
  return new ApiError('internal_error', 'Internal error; the request id identifies it in the server log');
}

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

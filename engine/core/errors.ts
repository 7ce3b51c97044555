/**
 * Typed errors with stable codes. Anything thrown in the pipeline ends up in the
 * error envelope: an ApiError shows its message as written; anything else becomes
 * 500 `internal_error` with a generic message (no stack ever reaches a client).
 * The code decides the status: error-codes.ts is the one table of both.
 */
import { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes.js';

export interface ErrorDetail {
  param?: string;
  problem: string;
  [extra: string]: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ApiError';
    this.status = ERROR_CODES[code].status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

/**
 * An error that crossed a thread or was stored with a job, as its code and message: the
 * table gives its status again. A code this version does not know becomes internal_error.
 */
export const reviveError = (code: string, message: string, options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {}) =>
  new ApiError(isErrorCode(code) ? code : 'internal_error', message, options);

export const missingParameter = (param: string) =>
  new ApiError('missing_parameter', `Missing required parameter: ${param}`, {
    details: [{ param, problem: 'required' }],
  });

export const invalidParameter = (param: string, problem: string) =>
  new ApiError('invalid_parameter', `Invalid parameter ${param}: ${problem}`, {
    details: [{ param, problem }],
  });

export const unsupportedUrl = (param: string, why: string) =>
  new ApiError('unsupported_url', `Unsupported URL in ${param}: ${why}`, {
    details: [{ param, problem: why }],
  });

export const notFound = (what = 'No such endpoint') => new ApiError('not_found', what);

export const unavailable = (reason: string) => new ApiError('unavailable', `This endpoint is unavailable: ${reason}`);

export const overloaded = (what = 'The server is busy') => new ApiError('overloaded', `${what}; retry in a few seconds`, { headers: { 'Retry-After': '5' } });

export const upstreamError = (upstream: string, why: string, cause?: unknown) =>
  new ApiError('upstream_error', `Upstream ${upstream} failed: ${why}`, { cause });

export const upstreamTimeout = (upstream: string, ms: number) => new ApiError('upstream_timeout', `Upstream ${upstream} did not answer within ${ms} ms`);

/** 413 naming what was too large and the setting that limits it (BODY_MAX_BYTES, UPLOAD_MAX_BYTES, …). */
export const payloadTooLarge = (limit: number, what = 'The request body', setting?: string) =>
  new ApiError('payload_too_large', `${what} is larger than ${setting ? `${setting} (${limit} bytes)` : `the limit of ${limit} bytes`}`);

/** 400 for a body that could not be read as what it claims to be (bad JSON, broken multipart, corrupt compression, too deep). */
export const invalidBody = (problem: string) =>
  new ApiError('invalid_body', `The request body is malformed: ${problem}`, { details: [{ param: 'body', problem }] });

/** 408 for a request (headers or body) that did not arrive in time; the connection is closed after it. */
export const requestTimeout = (message = 'The request was not received in time') => new ApiError('request_timeout', message);

/** 400 for what Node's HTTP parser refuses: a bad request line, conflicting Content-Length/Transfer-Encoding, broken chunking. */
export const badRequest = (message: string) => new ApiError('bad_request', message);

/** 431 for a request line and headers over Node's 16 KB (usually a very long query string). */
export const headersTooLarge = () =>
  new ApiError('headers_too_large', 'The request line and headers are larger than 16 KB together; send long input (a long query) in a POST body');

/** Bounded work: the input needed more time, memory or nesting than one request may use. */
export const tooComplex = (why: string) => new ApiError('too_complex', `The input is too complex to process: ${why}; send a smaller or simpler input`);

/** A RangeError from too deep a recursion (deeply nested input to a recursive parser or printer). */
export const isStackOverflow = (err: unknown) => err instanceof RangeError && /call stack size/i.test(err.message);

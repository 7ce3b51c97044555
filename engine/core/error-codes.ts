/**
 * Every error code the engine answers, with its HTTP status and what it means: the one
 * table ApiError is built from (errors.ts), /openapi.json documents (so the typed client
 * types), and docs/using/errors.md is generated from. A code missing here does not
 * typecheck where it is thrown, and test/discovery/error-codes.test.ts fails on a code
 * written anywhere in engine/ without a row.
 */

export interface ErrorCodeRow {
  readonly status: number;
  /** One sentence for the docs: when a client gets this code. */
  readonly meaning: string;
  /**
   * False for a code a client never receives: one recorded for the logs and usage only (the
   * client has gone before it could be sent), or one that crosses a worker thread and is
   * turned into another code before the answer.
   */
  readonly answered?: false;
}

export const ERROR_CODES = {
  missing_parameter: { status: 400, meaning: 'A required parameter is absent (details name it)' },
  invalid_parameter: { status: 400, meaning: 'A parameter fails its schema (details name it and the problem)' },
  unsupported_url: {
    status: 400,
    meaning: 'A URL parameter points somewhere the service does not fetch: a private address, another scheme, a site the endpoint does not serve',
  },
  invalid_body: { status: 400, meaning: 'The request body is malformed: bad JSON, broken multipart, corrupt compression, or nested too deeply' },
  bad_request: { status: 400, meaning: 'The HTTP request itself is malformed (request line, Content-Length and Transfer-Encoding, chunking)' },
  missing_api_key: { status: 401, meaning: 'No API key was sent (or, on an upload, none before the file)' },
  invalid_api_key: { status: 401, meaning: 'The API key is unknown or revoked' },
  key_expired: { status: 401, meaning: 'The API key is past its expiry' },
  forbidden: { status: 403, meaning: 'An admin or metrics route without its token' },
  endpoint_not_allowed: { status: 403, meaning: "The endpoint is outside the key's allow-list" },
  ip_not_allowed: { status: 403, meaning: "The client address is outside the key's IP allow-list" },
  not_found: { status: 404, meaning: 'No such endpoint, or the requested result (a job, a short link, a hosted file) does not exist' },
  media_unavailable: { status: 404, meaning: 'The media exists no more, is private or protected, or its site refuses to serve it for now' },
  method_not_allowed: { status: 405, meaning: 'The path exists for another method (see the Allow header)' },
  job_finished: { status: 409, meaning: 'The job has already finished (completed, failed or cancelled): there is nothing to cancel' },
  job_cancelled: { status: 409, meaning: "A job's answer when it was cancelled (by its key or the administrator) before it finished" },
  request_timeout: { status: 408, meaning: 'The request headers or body did not arrive in time; the connection is closed' },
  payload_too_large: { status: 413, meaning: 'The upload, the body or an output is over its limit (the message names the setting)' },
  unsupported_media_type: { status: 415, meaning: 'The body is not of a type or encoding this endpoint accepts' },
  too_complex: { status: 422, meaning: 'The input needs more time, memory or nesting than one request may use' },
  rate_limited: {
    status: 429,
    meaning: "The key's per-minute limit, its unfinished jobs or the address's connections are used up; retry after Retry-After seconds",
  },
  daily_quota_exceeded: { status: 429, meaning: "The key's daily quota is used up until 00:00 UTC (Retry-After says when)" },
  headers_too_large: { status: 431, meaning: 'The request line and headers are over 16 KB together: send long input in a POST body' },
  client_closed: { status: 499, meaning: 'The client closed the connection before the answer (logged and counted, never sent)', answered: false },
  photo_unreadable: {
    status: 400,
    meaning: "A worker could not decode the client's photo; the caller answers invalid_parameter naming the photo's parameter (never sent as is)",
    answered: false,
  },
  internal_error: { status: 500, meaning: 'A bug; the X-Request-Id identifies it in the server log' },
  upstream_error: { status: 502, meaning: 'An upstream answered with an error or unusable data' },
  login_required: { status: 502, meaning: 'The upstream site asks this server to log in or pass a bot check (the host can configure cookies or a session)' },
  extractor_broken: { status: 502, meaning: "yt-dlp could not read the site's page: the host should update yt-dlp" },
  unavailable: { status: 503, meaning: 'A dependency is not configured or installed, or unreachable for now' },
  overloaded: { status: 503, meaning: 'The endpoint is at capacity; retry after Retry-After seconds' },
  database_unavailable: { status: 503, meaning: 'The database is unreachable; retry after Retry-After seconds' },
  not_ready: { status: 503, meaning: 'GET /health/ready: a dependency did not answer' },
  upstream_timeout: { status: 504, meaning: "An upstream (or the work itself) did not finish within the endpoint's timeout" },
} as const satisfies Record<string, ErrorCodeRow>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);

/** The codes a client can receive, grouped by status (ascending), in the table's order: what /openapi.json documents. */
export function answeredCodesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  const rows = Object.entries(ERROR_CODES) as [ErrorCode, ErrorCodeRow][];
  for (const [code, row] of rows.sort(([, a], [, b]) => a.status - b.status)) {
    if (row.answered === false) continue;
    byStatus.set(row.status, [...(byStatus.get(row.status) ?? []), code]);
  }
  return byStatus;
}

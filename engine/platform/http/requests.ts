import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Method } from 'got';

// What a caller asks of the HTTP client (client.ts) and what it gets back.

/** A call to an operator-configured upstream. Not SSRF-guarded: operators may point these at localhost. */
export interface UpstreamRequest {
  /** Name used in error messages ("searxng", "openai"); never the URL, which may hold keys. */
  upstream: string;
  url: string;
  method?: Method;
  searchParams?: Record<string, string | number | boolean | undefined> | URLSearchParams;
  /** Merged over the defaults; may replace the user agent. */
  headers?: Record<string, string>;
  json?: unknown;
  form?: Record<string, string>;
  body?: string | Buffer;
  /** Budget for the whole call, retries included; for streams, until the response headers arrive. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Largest decoded body accepted; over it the call fails with 502. Default: the client's (10 MiB). */
  maxBytes?: number;
  /** Retries on 408/429/5xx and network errors; only idempotent methods ever retry. Default 2. */
  retries?: number;
}

/** A fetch of a URL a client supplied, e.g. the `url` param of a downloader. */
export interface UserUrlRequest {
  /** The param the URL came from, named in 400 errors. Default `url`. */
  param?: string;
  /** Budget for the whole call; for streams, until the response headers arrive. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Largest file accepted; over it: 400 `invalid_parameter` "file too large (limit N bytes)". */
  maxBytes: number;
  /** Sent as the Accept header. */
  accept?: string;
  headers?: Record<string, string>;
}

export interface BufferedBody {
  body: Buffer;
  contentType?: string;
  /** Where the body came from after redirects, with any credentials removed. */
  finalUrl: string;
}

export interface StreamedBody {
  /** Decoded bytes, capped; destroyed with an ApiError on failure, or the caller's abort reason. */
  body: Readable;
  contentType?: string;
  /** From Content-Length when the body is not re-encoded on the way. */
  contentLength?: number;
  headers: IncomingHttpHeaders;
  finalUrl: string;
}

import got, { MaxRedirectsError, type Got, type Method, type OptionsInit, type Request, type Response } from 'got';
import type { Config } from '../config.js';
import { ApiError, invalidParameter, unsupportedUrl, upstreamError, upstreamTimeout } from '../../core/errors.js';
import { guardedAgents, upstreamAgents } from './agents.js';
import { capBytes, readCapped } from './byte-limit.js';
import { Deadline } from './deadline.js';
import { AddressRefused, createSsrfGuard, type SsrfGuard } from './ssrf-guard.js';
import type { UpstreamOutcome } from '../metrics/metrics.js';
import { ownFileReader, type OwnFileStore } from './own-files.js';
import type { BufferedBody, StreamedBody, UpstreamRequest, UserUrlRequest } from './requests.js';
import { JSON_MAX_DEPTH, nestedDeeperThan } from '../../core/json-depth.js';

/**
 * The one outbound HTTP client. Every call has a deadline (504 when it passes), a
 * size cap counted on decoded bytes, bounded retries with backoff for idempotent
 * methods, and one mapping of failures to 502/504 whose messages name the upstream
 * and a status or error code, never a URL or header (they may carry API keys).
 * User-supplied URLs additionally pass the SSRF guard before the request, on every
 * redirect, and at connect time through their agents' `lookup`.
 */

export type { BufferedBody, StreamedBody, UpstreamRequest, UserUrlRequest } from './requests.js';

export interface HttpClient {
  /** `Manifold/<version> (+<publicBaseUrl>)`. */
  readonly userAgent: string;
  /** The SSRF guard, for adapters that hand a user URL to another tool (yt-dlp, a browser). */
  readonly guard: SsrfGuard;
  upstreamJson<T = unknown>(request: UpstreamRequest): Promise<T>;
  /** The body decoded with the charset the response declares (UTF-8 otherwise). */
  upstreamText(request: UpstreamRequest): Promise<string>;
  upstreamBuffer(request: UpstreamRequest): Promise<BufferedBody>;
  upstreamStream(request: UpstreamRequest): Promise<StreamedBody>;
  fetchUserUrl(url: string, request: UserUrlRequest): Promise<BufferedBody>;
  streamUserUrl(url: string, request: UserUrlRequest): Promise<StreamedBody>;
}

export interface HttpClientOptions {
  /** Defaults to a guard with the system resolver and `config.allowPrivateUrls`. */
  guard?: SsrfGuard;
  /** Default retry count for idempotent calls (2). */
  retries?: number;
  /** First backoff step in ms (250); it doubles per retry, plus up to half of it as jitter. */
  retryBaseMs?: number;
  /** Default upstream body cap (10 MiB). */
  maxBytes?: number;
  /** Told how each upstream call (not user URLs) ended, for metrics. */
  observe?: (upstream: string, outcome: UpstreamOutcome) => void;
  /** The engine's file store: user URLs that are this server's own /files/ links are read from it (own-files.ts). */
  ownFiles?: OwnFileStore;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
const RETRY_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'ENETUNREACH', 'EAI_AGAIN', 'EHOSTUNREACH']);
const MAX_REDIRECTS = 5;

/** A non-2xx answer, kept apart from network errors so it can be retried and described. */
class UpstreamStatus extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(`HTTP ${status}`);
  }
}

/** Everything one call needs, whichever public method it came from. */
interface Call {
  /** Upstream name (or user host) for error messages. */
  name: string;
  url: string;
  http: Got;
  options: Omit<OptionsInit, 'isStream'>;
  deadline: Deadline;
  maxBytes: number;
  retries: number;
  tooLarge: () => ApiError;
  /** Set for user URLs: the param named by refusals. */
  param?: string;
}

/** The HTTP status behind a 502 from this client (e.g. to turn an upstream 404 into a 404), if it was one. */
export function upstreamStatusOf(error: unknown): number | undefined {
  return findCause(error, UpstreamStatus)?.status;
}

const errorCode = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : undefined;
};

/** The first error of type `type` along the `cause` chain. */
function findCause<E>(error: unknown, type: abstract new (...args: any[]) => E): E | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof type) return e;
  }
  return undefined;
}

function retryAfterMs(response: Response): number | undefined {
  const header = response.headers['retry-after'];
  if (!header) return undefined;
  const seconds = Number(header);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.max(0, ms) : undefined;
}

/** A user URL's host for messages (the URL itself may carry credentials). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'url';
  }
}

const withoutCredentials = (url: string): string => {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
};

function decodeText(body: Buffer, contentType: string | undefined): string {
  const charset = /charset="?([\w-]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body);
  } catch {
    return body.toString('utf8'); // an unknown charset label: UTF-8 is the best guess
  }
}

export function createHttpClient(config: Config, clientOptions: HttpClientOptions = {}): HttpClient {
  const userAgent = `Manifold/${config.version} (+${config.publicBaseUrl})`;
  const guard = clientOptions.guard ?? createSsrfGuard({ allowPrivate: config.allowPrivateUrls });
  const ownFile = clientOptions.ownFiles && ownFileReader(config.publicBaseUrl, clientOptions.ownFiles);
  const defaultRetries = clientOptions.retries ?? 2;
  const retryBaseMs = clientOptions.retryBaseMs ?? 250;
  const defaultMaxBytes = clientOptions.maxBytes ?? 10 * 1024 * 1024;

  // Retries and status checks are ours (see `open`), so got's are off; its redirect limit is pinned to ours.
  const upstreamHttp = got.extend({
    headers: { 'user-agent': userAgent },
    agent: upstreamAgents(),
    retry: { limit: 0 },
    throwHttpErrors: false,
    maxRedirects: MAX_REDIRECTS,
    enableUnixSockets: false,
    hooks: {
      // An upstream's own address may be private (a self-hosted SearXNG, LibreTranslate…): the host
      // configured it. Where it sends us next is the upstream's say, not the host's, so a redirect
      // to another host passes the SSRF guard like a client's URL (a compromised or hostile
      // upstream must not reach the metadata service or the host's own network through us).
      beforeRedirect: [
        async (options, response) => {
          // user-URL calls (userHttp extends this client, hooks and all) are guarded by their own hook
          const upstream = options.context.upstream as string | undefined;
          if (upstream === undefined) return;
          const target = options.url as URL;
          if (target.hostname === new URL(response.url).hostname) return;
          try {
            await guard.checkUrl(target);
          } catch (err) {
            if (err instanceof ApiError && err.code === 'unsupported_url') throw upstreamError(upstream, `redirected to a refused address (${err.message})`);
            throw err;
          }
        },
      ],
    },
  });
  const userHttp = upstreamHttp.extend({
    agent: guardedAgents(guard.lookup),
    hooks: {
      // Node skips `lookup` for IP-literal hosts, so every redirect target is checked here too.
      beforeRedirect: [
        async (options) => {
          await guard.checkUrl(options.url as URL, options.context.param as string);
        },
      ],
    },
  });

  /** Count an upstream call's end; user-URL fetches are not upstreams (their hosts are unbounded). */
  function observed(call: Call, error?: Error): void {
    if (!clientOptions.observe || call.param !== undefined) return;
    const outcome = !error ? 'ok' : error instanceof ApiError && error.code === 'upstream_timeout' ? 'timeout' : 'error';
    clientOptions.observe(call.name, outcome);
  }

  /** Turn whatever a call failed with into the error the endpoint should answer with. */
  function failure(error: unknown, call: Call): Error {
    if (call.deadline.timedOut) return upstreamTimeout(call.name, call.deadline.ms);
    if (call.deadline.callerAborted) {
      // The caller's own reason (client gone, endpoint timeout) is theirs to report.
      const reason: unknown = call.deadline.signal.reason;
      return reason instanceof Error ? reason : new DOMException('The operation was aborted', 'AbortError');
    }
    const apiError = findCause(error, ApiError);
    if (apiError) return apiError;
    const refused = findCause(error, AddressRefused);
    if (refused) return unsupportedUrl(call.param ?? 'url', refused.why);
    // The status rides along as the cause (it holds nothing secret) for `upstreamStatusOf`.
    if (error instanceof UpstreamStatus) return upstreamError(call.name, error.message, error);
    if (error instanceof MaxRedirectsError) return upstreamError(call.name, `more than ${MAX_REDIRECTS} redirects`);
    // got wraps bad options (a non-string query value, an invalid upstream URL) as a TypeError: a bug, so a 500.
    const bug = findCause(error, TypeError);
    if (bug) return bug;
    const code = errorCode(error); // got copies the socket's errno code onto its RequestError
    // got refuses a redirect to file:, data: etc. itself, before our beforeRedirect hook runs.
    if (call.param !== undefined && code === 'ERR_UNSUPPORTED_PROTOCOL') {
      return unsupportedUrl(call.param, 'only http and https URLs are allowed');
    }
    if (code === 'ETIMEDOUT') return upstreamTimeout(call.name, call.deadline.ms);
    return upstreamError(call.name, `${(code && NETWORK_ERRORS[code]) ?? 'request failed'} (${code ?? 'network error'})`);
  }

  /** How long to wait before retry number `attempt + 1`, or undefined to give up. */
  function retryDelay(error: unknown, attempt: number, call: Call): number | undefined {
    if (attempt >= call.retries) return undefined;
    let delay = retryBaseMs * 2 ** attempt + Math.random() * (retryBaseMs / 2);
    if (error instanceof UpstreamStatus) {
      if (!RETRY_STATUSES.has(error.status)) return undefined;
      delay = error.retryAfterMs ?? delay;
    } else {
      if (findCause(error, ApiError) || findCause(error, AddressRefused)) return undefined;
      const code = errorCode(error);
      if (!code || !RETRY_ERROR_CODES.has(code)) return undefined;
    }
    // A retry that cannot finish inside the budget would only turn a clear 502 into a 504.
    return delay < call.deadline.remaining() ? delay : undefined;
  }

  /** One request, resolved when a 2xx response's headers arrive. */
  function attempt(call: Call): Promise<{ request: Request; response: Response }> {
    const request = call.http.stream(call.url, { ...call.options, signal: call.deadline.signal });
    return new Promise((resolve, reject) => {
      // `on`, not `once`: a later error must find a listener (rejecting again is a no-op), not crash the process.
      request.on('error', reject);
      request.once('response', (response: Response) => {
        if (response.statusCode < 200 || response.statusCode > 299) {
          request.destroy();
          reject(new UpstreamStatus(response.statusCode, retryAfterMs(response)));
          return;
        }
        const length = Number(response.headers['content-length']);
        // Content-Length counts encoded bytes; it bounds the decoded size only for identity bodies.
        if (!response.headers['content-encoding'] && length > call.maxBytes) {
          request.destroy();
          reject(call.tooLarge());
          return;
        }
        resolve({ request, response });
      });
    });
  }

  /** Check a user URL, then retry `attempt` within the budget. Throws raw errors; callers map them once. */
  async function open(call: Call): Promise<{ request: Request; response: Response }> {
    if (call.param !== undefined) await call.deadline.race(guard.checkUrl(call.url, call.param));
    for (let tries = 0; ; tries++) {
      try {
        return await attempt(call);
      } catch (error) {
        const delay = retryDelay(error, tries, call);
        if (delay === undefined) throw error;
        await call.deadline.sleep(delay);
      }
    }
  }

  async function buffered(call: Call): Promise<BufferedBody> {
    try {
      const { request, response } = await open(call);
      const body = await readCapped(request, call.maxBytes, call.tooLarge);
      observed(call);
      return { body, contentType: response.headers['content-type'], finalUrl: withoutCredentials(response.url) };
    } catch (error) {
      const mapped = failure(error, call);
      observed(call, mapped);
      throw mapped;
    } finally {
      call.deadline.dispose();
    }
  }

  async function streamed(call: Call): Promise<StreamedBody> {
    let opened: { request: Request; response: Response };
    try {
      opened = await open(call);
    } catch (error) {
      call.deadline.dispose();
      const mapped = failure(error, call);
      observed(call, mapped);
      throw mapped;
    }
    // counted when the headers arrive: a stream cut later is the client's download, not the upstream's answer
    observed(call);
    const { request, response } = opened;
    call.deadline.stopClock();
    const body = capBytes(call.maxBytes, call.tooLarge);
    // Not `pipeline`: the output must fail with the mapped error, not got's raw one.
    request.on('error', (error) => body.destroy(failure(error, call)));
    body.on('close', () => {
      request.destroy();
      call.deadline.dispose();
    });
    request.pipe(body);
    const length = Number(response.headers['content-length']);
    return {
      body,
      contentType: response.headers['content-type'],
      contentLength: !response.headers['content-encoding'] && Number.isFinite(length) ? length : undefined,
      headers: response.headers,
      finalUrl: withoutCredentials(response.url),
    };
  }

  function upstreamCall(request: UpstreamRequest): Call {
    const method = (request.method ?? 'GET').toUpperCase() as Method;
    const maxBytes = request.maxBytes ?? defaultMaxBytes;
    return {
      name: request.upstream,
      url: request.url,
      http: upstreamHttp,
      options: {
        method,
        headers: request.headers,
        context: { upstream: request.upstream },
        searchParams: request.searchParams as OptionsInit['searchParams'],
        json: request.json,
        form: request.form,
        body: request.body,
      },
      deadline: new Deadline(request.timeoutMs, request.signal),
      maxBytes,
      retries: IDEMPOTENT.has(method) ? (request.retries ?? defaultRetries) : 0,
      tooLarge: () => upstreamError(request.upstream, `response too large (limit ${maxBytes} bytes)`),
    };
  }

  function userCall(url: string, request: UserUrlRequest): Call {
    const param = request.param ?? 'url';
    return {
      name: hostOf(url),
      url,
      http: userHttp,
      options: {
        method: 'GET',
        headers: { ...(request.accept ? { accept: request.accept } : {}), ...request.headers },
        context: { param },
      },
      deadline: new Deadline(request.timeoutMs, request.signal),
      maxBytes: request.maxBytes,
      retries: defaultRetries,
      param,
      tooLarge: () => invalidParameter(param, `file too large (limit ${request.maxBytes} bytes)`),
    };
  }

  async function upstreamBuffer(request: UpstreamRequest): Promise<BufferedBody> {
    return buffered(upstreamCall(request));
  }

  return {
    userAgent,
    guard,
    async upstreamJson<T>(request: UpstreamRequest): Promise<T> {
      const { body } = await upstreamBuffer({
        ...request,
        headers: { accept: 'application/json', ...request.headers },
      });
      let value: T;
      try {
        value = JSON.parse(body.toString('utf8')) as T;
      } catch {
        throw upstreamError(request.upstream, 'response is not valid JSON');
      }
      // an upstream's JSON is input like a client's: what reads it (mappings, handlers) recurses
      if (nestedDeeperThan(value, JSON_MAX_DEPTH)) throw upstreamError(request.upstream, `its JSON nests more than ${JSON_MAX_DEPTH} levels deep`);
      return value;
    },
    async upstreamText(request) {
      const { body, contentType } = await upstreamBuffer(request);
      return decodeText(body, contentType);
    },
    upstreamBuffer,
    upstreamStream: (request) => streamed(upstreamCall(request)),
    async fetchUserUrl(url, request) {
      const own = await ownFile?.(url, request);
      if (!own) return buffered(userCall(url, request));
      // its size was checked against maxBytes before it was opened
      return { body: Buffer.concat(await own.body.toArray()), contentType: own.contentType, finalUrl: own.finalUrl };
    },
    async streamUserUrl(url, request) {
      return (await ownFile?.(url, request)) ?? streamed(userCall(url, request));
    },
  };
}

/**
 * Socket error codes in words an operator can act on (an offline host sees ENOTFOUND from
 * every upstream); the code stays beside them, for searching.
 */
const NETWORK_ERRORS: Record<string, string> = {
  ENOTFOUND: 'its host name does not resolve',
  EAI_AGAIN: 'its host name could not be resolved for now',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

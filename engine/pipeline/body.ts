import fs from 'node:fs';
import type formidable from 'formidable';
import type { Context, Middleware } from 'koa';
import type { Config } from '../platform/config.js';
import { ApiError, invalidBody, payloadTooLarge } from '../core/errors.js';
import { watchBodyPace } from './body-pace.js';
import type { Endpoint } from '../core/manifest-types.js';
import type { UploadedFile } from '../contract/call.js';
import { JSON_MAX_DEPTH, nestedDeeperThan } from '../core/json-depth.js';

/**
 * Body parsing for endpoints that take one. A body of a type the endpoint does not
 * accept gets 415 before a byte of it is read; one over its limit gets 413 naming the
 * limit that applies (the endpoint's `limits.bodyBytes` or BODY_MAX_BYTES for JSON and
 * form bodies, UPLOAD_MAX_BYTES for files). JSON and form bodies go through koa-body
 * (one parser per distinct limit); multipart bodies through formidable, which streams
 * files to DATA_DIR/tmp (never into memory) and lets the pipeline refuse the upload at
 * its first file part when no valid key came before it (see `FileGate`). Temp files
 * are removed after the response unless an adapter adopted them.
 */
// koa-body (with co-body and zod) and formidable load with the first request that has a body, not at boot
let koaBodyModule: Promise<typeof import('koa-body')> | undefined;
export const loadKoaBody = () => (koaBodyModule ??= import('koa-body'));
let formidableModule: Promise<typeof formidable> | undefined;
const loadFormidable = () => (formidableModule ??= import('formidable').then((m) => (m as unknown as { default: typeof formidable }).default));

/** What a route declares about its body: the types it takes and its own size limit (manifest endpoints and built-ins alike). */
export type BodySpec = { body: readonly Endpoint['body'][number][]; limits: { bodyBytes?: number } };

/** Called at the first file part of a multipart body with the fields read before it; throws (an ApiError) to refuse the upload. */
export type FileGate = (fields: Record<string, string>) => Promise<void> | void;

/** Content codings co-body can undo for JSON and form bodies; multipart bodies are taken as sent (identity) only. */
const DECODED = new Set(['identity', 'gzip', 'deflate', 'br']);

const TYPE_NAMES = { json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' } as const;

export class BodyParsers {
  private readonly parsers = new Map<number, Middleware>();

  constructor(
    private readonly config: Config,
    private readonly tempDir: string,
  ) {}

  /**
   * Parse the request body, if there is one; a request without one returns undefined at
   * once (no promise to wait for). `gate` runs before the first file of a multipart body.
   */
  parse(ctx: Context, endpoint: BodySpec, gate?: FileGate): Promise<void> | undefined {
    return hasBody(ctx) ? this.#withPace(ctx, this.#parse(ctx, endpoint, gate)) : undefined;
  }

  async #parse(ctx: Context, endpoint: BodySpec, gate: FileGate | undefined): Promise<void> {
    const types = endpoint.body;
    const matched = types.find((t) => ctx.is(t === 'form' ? 'urlencoded' : t));
    if (!matched) {
      throw new ApiError(
        'unsupported_media_type',
        types.length ? `Send the body as ${types.map((t) => TYPE_NAMES[t]).join(' or ')}` : 'This endpoint takes no request body',
      );
    }
    const encoding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
    if (matched === 'multipart' ? encoding !== 'identity' : !DECODED.has(encoding)) {
      const accepted = matched === 'multipart' ? 'none (identity)' : [...DECODED].join(', ');
      throw new ApiError('unsupported_media_type', `Content-Encoding ${encoding} is not supported for ${TYPE_NAMES[matched]} bodies (accepted: ${accepted})`);
    }
    // the client held the body back until told it is wanted (http-server.ts, checkContinue)
    if (/^100-continue$/i.test(ctx.get('Expect'))) ctx.res.writeContinue();
    if (matched === 'multipart') return this.#multipart(ctx, endpoint, gate);
    const limit = endpoint.limits.bodyBytes ?? this.config.bodyMaxBytes;
    await (
      await this.parserFor(limit, endpoint.limits.bodyBytes !== undefined)
    )(ctx, async () => {});
    const body = ctx.request.body;
    if (nestedDeeperThan(body, JSON_MAX_DEPTH)) throw invalidBody(`nested deeper than ${JSON_MAX_DEPTH} levels`);
  }

  /** JSON and form bodies: one koa-body parser per distinct limit. */
  private async parserFor(limit: number, ownLimit: boolean): Promise<Middleware> {
    let parser = this.parsers.get(limit);
    if (!parser) {
      const { koaBody, HttpMethodEnum } = await loadKoaBody();
      const setting = ownLimit ? "this endpoint's limits.bodyBytes" : 'BODY_MAX_BYTES';
      parser = koaBody({
        json: true,
        urlencoded: true,
        multipart: false,
        text: false,
        jsonLimit: limit,
        formLimit: limit,
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        onError: (err) => {
          throw bodyError(err, () => payloadTooLarge(limit, 'The request body', setting));
        },
      }) as unknown as Middleware;
      this.parsers.set(limit, parser);
    }
    return parser;
  }

  async #multipart(ctx: Context, endpoint: BodySpec, gate: FileGate | undefined): Promise<void> {
    const createForm = await loadFormidable();
    const fieldLimit = endpoint.limits.bodyBytes ?? this.config.bodyMaxBytes;
    const form = createForm({
      uploadDir: this.tempDir,
      maxFileSize: this.config.uploadMaxBytes,
      maxTotalFileSize: this.config.uploadMaxBytes,
      maxFieldsSize: fieldLimit,
      keepExtensions: false,
      allowEmptyFiles: true,
      minFileSize: 0,
    });
    const internal = form as unknown as { fields: Record<string, string[]>; _error(err: unknown): void; _handlePart(part: unknown): unknown };
    const files: FormidableFile[] = [];
    // what formidable wrote so far, so a refused or failed upload leaves nothing behind
    form.on('fileBegin', (_name, file) => void files.push(file as unknown as FormidableFile));
    (ctx.state as { uploads?: FormidableFile[] }).uploads = files;
    let passed = !gate;
    // formidable pauses its parser while onPart runs, so the file waits for the key check;
    // onPart must not reject (formidable would not catch it): a refusal goes to form._error
    form.onPart = async (part) => {
      // formidable takes a part without a Content-Type for a text field, even one that names a
      // file; RFC 7578 (4.4) makes a file's type optional, and some bot libraries leave it out
      if (!part.mimetype && typeof part.originalFilename === 'string') part.mimetype = 'application/octet-stream';
      if (gate && part.mimetype && !passed) {
        try {
          await gate(Object.fromEntries(Object.entries(internal.fields ?? {}).map(([k, v]) => [k, v[0]])));
          passed = true;
        } catch (err) {
          // before the file is created: nothing of it is written
          internal._error(err);
          return;
        }
      }
      return internal._handlePart(part);
    };
    let parsed: [Record<string, string[] | undefined>, Record<string, FormidableFile[] | undefined>];
    try {
      parsed = (await form.parse(ctx.req)) as unknown as typeof parsed;
    } catch (err) {
      throw bodyError(err, () =>
        isFieldOverflow(err)
          ? payloadTooLarge(fieldLimit, 'The form fields', endpoint.limits.bodyBytes !== undefined ? "this endpoint's limits.bodyBytes" : 'BODY_MAX_BYTES')
          : payloadTooLarge(this.config.uploadMaxBytes, 'The upload', 'UPLOAD_MAX_BYTES'),
      );
    }
    const [fields, uploaded] = parsed;
    ctx.request.body = Object.fromEntries(Object.entries(fields).flatMap(([k, v]) => (v === undefined ? [] : [[k, v.length === 1 ? v[0] : v]])));
    (ctx.request as unknown as { files?: Record<string, FormidableFile[]> }).files = uploaded as Record<string, FormidableFile[]>;
  }

  /**
   * A body that stops arriving, or crawls in, is given up (408) — BODY_IDLE_TIMEOUT_MS
   * without a byte, or slower than BODY_MIN_RATE on average after that (body-pace.ts) —
   * so a slow client cannot hold a connection and a parser for the whole
   * REQUEST_TIMEOUT_MS; only while the body is read, never while an answer streams.
   */
  async #withPace(ctx: Context, parsing: Promise<void>): Promise<void> {
    const pace = { idleMs: this.config.bodyIdleTimeoutMs, minRate: this.config.bodyMinRate };
    if (!pace.idleMs) return parsing;
    let onTooSlow: (error: ApiError) => void = () => {};
    const tooSlow = new Promise<never>((_, reject) => (onTooSlow = reject));
    // the race below reports the outcome; a parse that fails after the timeout must not go unhandled
    parsing.catch(() => {});
    const stop = watchBodyPace(ctx.req, pace, (error) => onTooSlow(error));
    try {
      await Promise.race([parsing, tooSlow]);
    } finally {
      stop();
    }
  }
}

export function hasBody(ctx: Context): boolean {
  const { headers } = ctx.req;
  return Boolean(headers['transfer-encoding']) || Number(headers['content-length'] || 0) > 0;
}

/**
 * A parser's failure as the client's fault it is: too large → the given 413, unknown
 * coding → 415, anything else that broke while reading the body (bad JSON, a truncated
 * or boundary-less multipart, corrupt gzip/brotli data) → 400 invalid_body.
 */
function bodyError(err: unknown, tooLarge: () => ApiError): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { httpCode?: number; status?: number; code?: string | number; type?: string; message?: string };
  if (e.httpCode === 413 || e.status === 413) return tooLarge();
  if (e.status === 415) return new ApiError('unsupported_media_type', sentence(e.message ?? 'Unsupported content encoding'));
  if (e.type === 'request.aborted' || (typeof e.code === 'number' && e.code === 1002) || /aborted/i.test(e.message ?? '')) {
    return new ApiError('invalid_body', 'The client closed the connection before the body was complete');
  }
  // co-body rethrows JSON.parse's SyntaxError as is: without this, 'Unexpected end of JSON input' read as a truncated multipart
  if (e.type === 'entity.parse.failed' || err instanceof SyntaxError) return invalidBody('not valid JSON');
  return invalidBody(describe(e));
}

/** What was wrong, in words a client can act on (formidable's and zlib's messages are for developers). */
function describe(e: { code?: string | number; message?: string; httpCode?: number }): string {
  const message = e.message ?? '';
  if (/boundary/i.test(message)) return 'multipart/form-data without a boundary parameter';
  if (/ended unexpectedly|unexpected end/i.test(message)) return 'truncated multipart body (no closing boundary)';
  if (typeof e.code === 'string' && e.code.startsWith('Z_')) return 'the compressed data is corrupt';
  if (/incorrect header check|invalid (block|distance|code)|unexpected end of file|decompression/i.test(message)) return 'the compressed data is corrupt';
  if (e.httpCode !== undefined) return 'malformed multipart/form-data';
  return 'it could not be parsed';
}

/** formidable's field-size overrun (maxFieldsSize) as opposed to a file-size one. */
const isFieldOverflow = (err: unknown) => /maxFieldsSize/.test((err as Error).message ?? '');

const sentence = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface FormidableFile {
  filepath: string;
  size: number;
  originalFilename?: string | null;
  mimetype?: string | null;
}

/** Multipart files of the request, first per field. */
export function uploadedFiles(ctx: Context): Record<string, UploadedFile> {
  const out: Record<string, UploadedFile> = {};
  const files = (ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]> }).files ?? {};
  for (const [field, value] of Object.entries(files)) {
    const file = Array.isArray(value) ? value[0] : value;
    if (file) out[field] = { path: file.filepath, size: file.size, name: file.originalFilename ?? field, clientType: file.mimetype ?? undefined };
  }
  return out;
}

/** Remove the temp files of the request's upload that an adapter did not adopt (also those of a refused or failed one). */
export async function removeUploads(ctx: Context): Promise<void> {
  const files = (ctx.state as { uploads?: FormidableFile[] }).uploads ?? [];
  await Promise.all(files.map((f) => fs.promises.rm(f.filepath, { force: true })));
}

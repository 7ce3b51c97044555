import fs from 'node:fs';
import type { Context, Middleware } from 'koa';
import type { Config } from '../config.js';
import { ApiError, payloadTooLarge } from '../errors.js';
import type { Endpoint } from '../manifest/types.js';
import type { UploadedFile } from '../adapters/types.js';

/**
 * Body parsing for endpoints that take one. Parsers are built once per distinct
 * (body types, limit) pair, not per endpoint. A body of a type the endpoint does
 * not accept gets 415; one over its limit gets 413. Multipart files are streamed to
 * DATA_DIR/tmp by formidable (never held in memory) and removed after the response.
 */
// koa-body (with formidable and zod) loads with the first request that has a body, not at boot
let koaBodyModule: Promise<typeof import('koa-body')> | undefined;
export const loadKoaBody = () => (koaBodyModule ??= import('koa-body'));

export class BodyParsers {
  private readonly parsers = new Map<string, Middleware>();

  constructor(
    private readonly config: Config,
    private readonly tempDir: string,
  ) {}

  /** Parse the request body, if there is one; a request without one returns undefined at once (no promise to wait for). */
  parse(ctx: Context, endpoint: Endpoint): Promise<void> | undefined {
    return hasBody(ctx) ? this.#parse(ctx, endpoint) : undefined;
  }

  async #parse(ctx: Context, endpoint: Endpoint): Promise<void> {
    const types = endpoint.body;
    const matched = types.find((t) => ctx.is(t === 'form' ? 'urlencoded' : t));
    if (!matched) {
      const names = types.map((t) => ({ json: 'application/json', form: 'application/x-www-form-urlencoded', multipart: 'multipart/form-data' })[t]);
      throw new ApiError(415, 'unsupported_media_type', types.length ? `Send the body as ${names.join(' or ')}` : 'This endpoint takes no request body');
    }
    const limit = endpoint.limits.bodyBytes ?? this.config.bodyMaxBytes;
    await (await this.parserFor(types, limit))(ctx, async () => {});
  }

  private async parserFor(types: string[], limit: number): Promise<Middleware> {
    const key = `${types.join(',')}|${limit}`;
    let parser = this.parsers.get(key);
    if (!parser) {
      const { koaBody, HttpMethodEnum } = await loadKoaBody();
      parser = koaBody({
        json: types.includes('json'),
        urlencoded: types.includes('form'),
        multipart: types.includes('multipart'),
        text: false,
        jsonLimit: limit,
        formLimit: limit,
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        formidable: {
          uploadDir: this.tempDir,
          maxFileSize: this.config.uploadMaxBytes,
          maxTotalFileSize: this.config.uploadMaxBytes,
          maxFieldsSize: limit,
          keepExtensions: false,
        },
        onError: (err) => {
          throw isTooLarge(err) ? payloadTooLarge(this.config.uploadMaxBytes) : err;
        },
      }) as unknown as Middleware;
      this.parsers.set(key, parser);
    }
    return parser;
  }
}

function hasBody(ctx: Context): boolean {
  const { headers } = ctx.req;
  return Boolean(headers['transfer-encoding']) || Number(headers['content-length'] || 0) > 0;
}

/** formidable reports size overruns with httpCode 413 (codes 1009/1016). */
const isTooLarge = (err: unknown) => (err as { httpCode?: number; status?: number }).httpCode === 413 || (err as { status?: number }).status === 413;

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

/** Remove temp files an adapter did not adopt. */
export async function removeUploads(ctx: Context): Promise<void> {
  const files = (ctx.request as unknown as { files?: Record<string, FormidableFile | FormidableFile[]> }).files ?? {};
  await Promise.all(
    Object.values(files)
      .flat()
      .map((f) => fs.promises.rm(f.filepath, { force: true })),
  );
}

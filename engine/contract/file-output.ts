import path from 'node:path';
import type { Endpoint } from '../core/manifest-types.js';
import type { FileStore, StoredFile } from '../platform/storage/files.js';
import { json, type AdapterSetup, type Call, type Output } from './call.js';

/**
 * A file a call produced (a rendered picture, an MP3, a PDF, a ZIP, a QR code…) and what
 * its JSON answer says when it is hosted. Handlers and feature libraries return it and
 * nothing more: the engine alone decides (answerFile) whether the caller gets the bytes or
 * the hosted file's link, stores the file, and builds the answer from `answer`.
 *
 * `answer` is the hosted JSON answer as it reads, in its field order, with the stored
 * file's facts written as placeholders (`hosted.url`, `hosted.size`, …) where the link and
 * the facts go: `{ image_url: hosted.url, format: 'png', width, height, size: hosted.size }`,
 * `hosted.url` alone, `[hosted.url]`. Without one the answer is `{url, size, mime, sha256}`
 * (or what the endpoint's adapter config asks for: the link alone with `fileResult: url`).
 * A `cost: cpu` handler's file crosses back from its worker thread as bytes, extension and
 * type only (kinds/handlers/cpu-task.ts): its answer is the adapter's, or the one the
 * main-thread handler that ran it gives (`withAnswer`, as tools/createqr does).
 */
export interface FileOptions {
  /** The hosted JSON answer, with `hosted.*` placeholders; filled in once the file is stored. */
  answer?: unknown;
  /** The bytes' file name without its extension (Content-Disposition); default the endpoint path's last segment. */
  name?: string;
  /** Headers sent with the bytes (a rendered picture's Cache-Control). */
  headers?: Readonly<Record<string, string>>;
}

export class FileOutput {
  constructor(
    readonly data: Buffer,
    readonly ext: string,
    readonly contentType: string,
    readonly options: FileOptions = {},
  ) {}

  /** The same file with another hosted answer (an endpoint that answers the link alone, or adds a field). */
  withAnswer(answer: unknown): FileOutput {
    return new FileOutput(this.data, this.ext, this.contentType, { ...this.options, answer });
  }
}

/** Where one fact of the stored file goes in a hosted answer. */
export class HostedFact {
  constructor(readonly fact: 'url' | 'size' | 'sha256' | 'name') {}
}

/** The placeholders of a hosted answer: the stored file's link, size in bytes, SHA-256 and store name. */
export const hosted = {
  url: new HostedFact('url'),
  size: new HostedFact('size'),
  sha256: new HostedFact('sha256'),
  name: new HostedFact('name'),
} as const;

/**
 * Whether a call is answered with the file's bytes rather than the hosted link: `stream=true`
 * (streamable endpoints), or a binary endpoint not asked for `hosted=true`. Synchronous calls
 * and jobs (pipeline/jobs) both read this.
 */
export function wantsBytes(endpoint: Pick<Endpoint, 'response'>, params: Readonly<Record<string, unknown>>): boolean {
  return params.stream === true || (endpoint.response === 'binary' && params.hosted !== true);
}

/**
 * The answer of a call that produced a file: its bytes (named after the endpoint or
 * `options.name`, with `options.headers`) when the call wants bytes, else the file hosted
 * and its JSON answer. `fallback` is the answer when the file names none (the adapter's).
 */
export async function answerFile(file: FileOutput, call: Call, setup: AdapterSetup, fallback?: unknown): Promise<Output> {
  if (wantsBytes(setup.endpoint, call.params)) {
    const name = file.options.name ?? (path.posix.basename(setup.endpoint.path) || 'file');
    const bytes: Output = { type: 'binary', body: file.data, contentType: file.contentType, filename: `${name}.${file.ext}` };
    return file.options.headers ? { ...bytes, headers: { ...file.options.headers } } : bytes;
  }
  return json(await hostFile(setup.files, file, fallback));
}

/**
 * Store a file as a generated file (it expires with GENERATED_FILES_TTL) and fill its answer:
 * the one place a file a call produced is hosted.
 */
export async function hostFile(files: FileStore, file: FileOutput, fallback?: unknown): Promise<unknown> {
  const stored = await files.put(file.data, { ext: file.ext });
  const answer = file.options.answer ?? fallback ?? { url: hosted.url, size: hosted.size, mime: file.contentType, sha256: hosted.sha256 };
  return fill(answer, stored);
}

/** The answer with each placeholder replaced by the stored file's fact (arrays and plain objects, at any depth). */
function fill(answer: unknown, stored: StoredFile): unknown {
  if (answer instanceof HostedFact) return stored[answer.fact];
  if (Array.isArray(answer)) return answer.map((item) => fill(item, stored));
  if (answer !== null && typeof answer === 'object' && Object.getPrototypeOf(answer) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(answer)) out[key] = fill(value, stored);
    return out;
  }
  return answer;
}

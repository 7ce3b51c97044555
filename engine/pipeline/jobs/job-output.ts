import { Readable } from 'node:stream';
import type { Output } from '../../contract/call.js';
import { FileOutput, hostFile, hosted as stored } from '../../contract/file-output.js';
import { ApiError } from '../../core/errors.js';
import { readCapped } from '../../platform/http/byte-limit.js';
import { extensionOf, type FileStore } from '../../platform/storage/files.js';

/**
 * What a job keeps of its handler's answer, and how a waiting synchronous call turns
 * that back into the answer it would have given.
 *
 * A JSON answer is kept as is: `result.result` of GET /api/jobs/:id is exactly the
 * synchronous `result`. An answer in bytes (a binary endpoint, `stream=true`, a stored
 * file) cannot live in a job record: the bytes become a hosted file (generated, so they
 * expire with GENERATED_FILES_TTL, hosted by the same function as a call's file) and the
 * job's result names it: `{download_url, filename, content_type, size}`. A redirect keeps
 * its `location`.
 */
export interface HostedResult {
  download_url: string;
  filename: string;
  content_type: string;
  size: number;
}

export async function storeOutput(output: Output, files: FileStore, maxBytes: number): Promise<unknown> {
  if (output.type === 'json') return output.result;
  if (output.type === 'redirect') return { location: output.location };
  const body = output.type === 'file' ? await output.file.read() : output.body;
  const tooLarge = () =>
    new ApiError('payload_too_large', `The job's output is over ${maxBytes} bytes (UPLOAD_MAX_BYTES): request a link instead of the bytes`);
  const bytes = body instanceof Readable ? await readCapped(body, maxBytes, tooLarge) : body;
  if (bytes.length > maxBytes) throw tooLarge();
  const ext = (output.filename && /\.([a-z0-9]{1,10})$/i.exec(output.filename)?.[1]) || extensionOf(output.contentType);
  const answer = { download_url: stored.url, filename: output.filename ?? stored.name, content_type: output.contentType, size: stored.size };
  return hostFile(files, new FileOutput(bytes, ext, output.contentType, { answer }));
}

/**
 * The answer of a synchronous call that a worker ran: the JSON result, or, when the
 * caller asked for bytes, the hosted file the job's bytes went to.
 */
export async function outputOf(result: unknown, wantsBytes: boolean, files: FileStore): Promise<Output> {
  const hosted = result as Partial<HostedResult> | null;
  if (!wantsBytes || typeof hosted?.download_url !== 'string') return { type: 'json', result };
  const name = new URL(hosted.download_url).pathname.split('/').pop()!;
  const file = await files.open(name);
  if (!file) throw new ApiError('not_found', 'The file this job produced has expired');
  return { type: 'file', file, contentType: hosted.content_type ?? 'application/octet-stream', filename: hosted.filename };
}

import { FileOutput, hosted } from '../../contract/file-output.js';
import type { RenderResult } from './render.js';

/** What a hosted rendered picture answers: `{image_url, format, width, height, size}` (clients read `image_url`). */
export const imageAnswer = (r: RenderResult) => ({ image_url: hosted.url, format: r.format, width: r.width, height: r.height, size: hosted.size });

/**
 * A rendered picture as the call's file: the bytes are named `<name>.<format>` and cached a
 * day by clients (the same request renders the same picture); hosted, it answers imageAnswer.
 */
export const renderedFile = (r: RenderResult, name: string): FileOutput =>
  new FileOutput(r.data, r.format, r.contentType, { answer: imageAnswer(r), name, headers: { 'Cache-Control': 'public, max-age=86400' } });

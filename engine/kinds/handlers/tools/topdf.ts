import { invalidParameter, missingParameter } from '../../../core/errors.js';
import { printPdf, type PdfRequest } from '../../../features/pdf/page-pdf.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput, hosted } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/** A link alone (a page or a picture) is printed as that page; anything else is text. */
const LINK = /^https?:\/\/\S+$/;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Plain text as a printable document: kept as written (lines, spaces), wrapped to the page. */
const textDocument = (text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;` +
  `font:12pt/1.5 "DejaVu Sans","Liberation Sans",sans-serif}</style></head><body><pre>${escapeHtml(text)}</pre></body></html>`;

/**
 * /api/tools/topdf: a page (`url`), an HTML document (`html`) or text (`text`, which clients
 * send as `query`; a link alone there is printed as that page or picture) as PDF bytes, what
 * clients of the genre read; `hosted=true` stores it and answers the link.
 */
export default handler<Params['tools/topdf']>(async ({ params, call, setup }) => {
  const { text, hosted: _hosted, ...rest } = params;
  const request: PdfRequest = { ...rest };
  if (text !== undefined && (request.url || request.html)) throw invalidParameter('text', 'give one of url, html or text');
  if (text !== undefined) {
    if (LINK.test(text.trim())) request.url = text.trim();
    else request.html = textDocument(text);
  }
  if (!request.url && !request.html) throw missingParameter('url');
  const pdf = await printPdf(setup, call, request);
  // the engine answers the bytes, or with hosted=true stores them and answers this
  return new FileOutput(pdf, 'pdf', 'application/pdf', { answer: { url: hosted.url, download_url: hosted.url, size: hosted.size, mime: 'application/pdf' } });
});

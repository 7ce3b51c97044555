import { missingParameter } from '../../errors.js';
import { printPdf, type PdfRequest } from '../../pdf/page-pdf.js';
import { FileOutput, handler } from '../types.js';

/**
 * /api/tools/topdf: a page (`url`, alias `query`) or an HTML document (`html`) as PDF
 * bytes, what clients of the genre read; `hosted=true` stores it and answers the link.
 */
export default handler<Omit<PdfRequest, 'url' | 'html'> & { url?: string; html?: string; hosted: boolean }>(async ({ params, call, setup }) => {
  if (!params.url && !params.html) throw missingParameter('url');
  const pdf = await printPdf(setup, call, params);
  if (!params.hosted) return new FileOutput(pdf, 'pdf', 'application/pdf');
  const stored = await setup.files.put(pdf, { ext: 'pdf' });
  return { url: stored.url, download_url: stored.url, size: stored.size, mime: 'application/pdf' };
});

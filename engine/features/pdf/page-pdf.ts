import type { AdapterSetup, Call } from '../../contract/call.js';
import { upstreamError } from '../../core/errors.js';
import { chromiumPath, withGuardedContext } from '../tools/browser/chromium.js';

/**
 * A web page (or an HTML document the client sends) printed to PDF by headless
 * Chromium's own print pipeline (`page.pdf`): selectable text, links and CSS print
 * rules as a browser prints them. Every request the page makes passes the SSRF guard
 * (../tools/browser/chromium.ts), the HTML case included, so a document cannot make
 * the server's browser reach a private address.
 */
export interface PdfRequest {
  url?: string;
  html?: string;
  paper: 'A4' | 'Letter' | 'Legal' | 'A3' | 'A5';
  landscape: boolean;
  /** Print CSS backgrounds (colours and images), as "Background graphics" in a print dialog. */
  background: boolean;
}

export async function printPdf(setup: AdapterSetup, call: Call, request: PdfRequest): Promise<Buffer> {
  const guard = setup.http.guard;
  if (request.url) await guard.checkUrl(request.url);
  return withGuardedContext(setup.scope, chromiumPath(setup.config.env), guard, { viewport: { width: 1280, height: 800 } }, async (context) => {
    // a client that leaves (or the endpoint timeout) closes the context, which ends the load or print at once
    const abort = () => void context.close().catch(() => undefined);
    call.signal.addEventListener('abort', abort, { once: true });
    try {
      const page = await context.newPage();
      const loaded = request.url
        ? page.goto(request.url, { waitUntil: 'load', timeout: 25_000 })
        : page.setContent(request.html!, { waitUntil: 'load', timeout: 25_000 });
      const response = await loaded.catch((err: Error) => {
        throw upstreamError('page', err.message.split('\n')[0]);
      });
      if (request.url && !response) throw upstreamError('page', 'no response');
      await page.emulateMedia({ media: 'print' });
      return await page.pdf({
        format: request.paper,
        landscape: request.landscape,
        printBackground: request.background,
        margin: { top: '12mm', bottom: '12mm', left: '10mm', right: '10mm' },
      });
    } finally {
      call.signal.removeEventListener('abort', abort);
    }
  });
}

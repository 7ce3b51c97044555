import { upstreamError } from '../../../core/errors.js';
import { chromiumPath, withGuardedContext } from '../../../features/tools/browser/chromium.js';
import { handler } from '../../../contract/handler.js';
import { FileOutput } from '../../../contract/file-output.js';
import type { Params } from '../params.generated.js';

/**
 * Screenshots of a web page in headless Chromium, every request SSRF-guarded (../browser/chromium.ts).
 * The image itself is the answer; `hosted=true` stores it and answers `{url, size, mime, sha256}`.
 */

const DEVICES = {
  desktop: { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
  tablet: { viewport: { width: 768, height: 1024 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

export default handler<Params['tools/screenshot']>(async ({ params, options, call, setup }) => {
  const guard = setup.http.guard;
  await guard.checkUrl(params.url);
  const preset = DEVICES[(options.device ?? 'desktop') as keyof typeof DEVICES];
  const viewport = { width: params.width ?? preset.viewport.width, height: params.height ?? preset.viewport.height };
  const image: FileOutput = await withGuardedContext(setup.scope, chromiumPath(setup.config.env), guard, { ...preset, viewport }, async (context) => {
    // a client that leaves (or the endpoint timeout) closes the context, which ends goto/screenshot at once
    const abort = () => void context.close().catch(() => undefined);
    call.signal?.addEventListener('abort', abort, { once: true });
    try {
      const page = await context.newPage();
      const response = await page.goto(params.url, { waitUntil: 'load', timeout: 25_000 }).catch((err: Error) => {
        throw upstreamError('page', err.message.split('\n')[0]);
      });
      if (!response) throw upstreamError('page', 'no response');
      if (params.delay) await page.waitForTimeout(params.delay);
      const type = params.format === 'jpeg' ? 'jpeg' : 'png';
      const image = await page.screenshot({ type, fullPage: Boolean(params.fullPage), quality: type === 'jpeg' ? 85 : undefined });
      return new FileOutput(image, type === 'jpeg' ? 'jpg' : 'png', `image/${type}`);
    } finally {
      call.signal?.removeEventListener('abort', abort);
    }
  });
  // the engine answers the bytes, or with hosted=true its default {url, size, mime, sha256}
  return image;
});

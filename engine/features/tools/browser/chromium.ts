import type { Browser, BrowserContext } from 'playwright-core';
import type { SsrfGuard } from '../../../platform/http/ssrf-guard.js';
import type { EngineScope } from '../../../platform/scope.js';

/**
 * One headless Chromium per engine (Debian's, at CHROMIUM_PATH or /usr/bin/chromium)
 * shared by its browser tools while they have work, and closed when the last job ends: a live
 * browser process would keep the Node process from exiting, and a launch costs only
 * ~0.3 s. Each job gets its own context (no cookies or cache shared between callers).
 */
/** The flags of a headless Chromium on a server or CI machine (no GPU, no sandbox as root, no background traffic); the console's browser test uses them too. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export function chromiumPath(env: Readonly<Record<string, string>>): string {
  return env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** One engine's browser: launched on the first job, closed when the last running job ends. */
class SharedChromium {
  #launching: Promise<Browser> | undefined;
  jobs = 0;

  async browser(executablePath: string): Promise<Browser> {
    const existing = this.#launching && (await this.#launching.catch(() => undefined));
    if (existing?.isConnected()) return existing;
    // imported on first use: playwright-core is large and most processes never launch a browser
    this.#launching = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath, args: CHROMIUM_ARGS }));
    return this.#launching;
  }

  async close(): Promise<void> {
    const current = this.#launching;
    this.#launching = undefined;
    await (await current?.catch(() => undefined))?.close();
  }
}

/**
 * Run `job` in a fresh context whose every request passes the SSRF guard: the page
 * itself, its sub-resources, fetch/XHR, redirects and WebSockets. Refused requests
 * are aborted, so a public page cannot make the server's browser reach a private
 * address. Service workers are blocked so no request can bypass the routing.
 */
export async function withGuardedContext<T>(
  scope: EngineScope,
  executablePath: string,
  guard: SsrfGuard,
  options: Parameters<Browser['newContext']>[0],
  job: (context: BrowserContext) => Promise<T>,
): Promise<T> {
  // the engine's own browser, closed with the engine (its scope) if a job is still running then
  const shared = scope.own('chromium', () => new SharedChromium(), { close: (chromium) => chromium.close() });
  shared.jobs++;
  let context: BrowserContext | undefined;
  try {
    context = await (await shared.browser(executablePath)).newContext({ ...options, serviceWorkers: 'block', acceptDownloads: false });
    const allowed = async (url: string) => {
      if (url.startsWith('data:') || url.startsWith('blob:')) return true;
      return guard.checkUrl(url).then(
        () => true,
        () => false,
      );
    };
    await context.route('**/*', async (route) => {
      if (await allowed(route.request().url())) await route.continue();
      else await route.abort('blockedbyclient');
    });
    await context.routeWebSocket(/.*/, async (ws) => {
      if (await allowed(ws.url().replace(/^ws/, 'http'))) ws.connectToServer();
      else ws.close({ code: 1008, reason: 'blocked' });
    });
    return await job(context);
  } finally {
    await context?.close().catch(() => undefined);
    if (--shared.jobs === 0) await shared.close();
  }
}

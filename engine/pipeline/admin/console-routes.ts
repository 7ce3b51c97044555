/**
 * The web console at /admin: the page and its two bundled files, as `npm run build`
 * writes them into build/console/ from console/ (scripts/build-console.ts). They carry
 * no data and no secret, so they need no token (`auth: none`); everything the page shows
 * comes from the admin API, to which it sends ADMIN_TOKEN as a Bearer header the host
 * types in (kept in the tab's sessionStorage, never in a URL or a cookie).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'koa';
import { ApiError, notFound } from '../../core/errors.js';
import { ROOT } from '../../core/root.js';
import { builtin, type Builtin } from '../builtin.js';
import { makeAsset, sendAsset, type Asset } from '../discovery/asset.js';

export const CONSOLE_BUILD_DIR = path.join(ROOT, 'build', 'console');
export const CONSOLE_PATH = '/admin';

const FILES: Record<string, string> = {
  'console.js': 'application/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
  'console.js.LEGAL.txt': 'text/plain; charset=utf-8',
};

/**
 * The page's Content-Security-Policy: its script and stylesheet from this server only
 * (no inline script or style, no eval), calls to this server only, nothing framed, no
 * form posted elsewhere. `img-src data:` is for the empty favicon the page declares.
 */
export const CONSOLE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** Headers of every console answer: the policy, and no referrer (the page's URL is not secret, but nothing of it leaves). */
function secure(ctx: Context): void {
  ctx.set('Content-Security-Policy', CONSOLE_POLICY);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
}

export function consoleBuiltins(dir = CONSOLE_BUILD_DIR): Builtin[] {
  const loaded = new Map<string, Asset>();
  /** A built file, read once; a console that was never built is a 503 saying how to build it. */
  const asset = (name: string, type: string): Asset => {
    let found = loaded.get(name);
    if (!found) {
      let body: Buffer;
      try {
        body = fs.readFileSync(path.join(dir, name));
      } catch {
        throw new ApiError('unavailable', 'The console is not built on this server: run `npm run build` (npm ci and npm start do it)');
      }
      loaded.set(name, (found = makeAsset(type, body)));
    }
    return found;
  };
  return [
    builtin({
      method: 'GET',
      path: CONSOLE_PATH,
      auth: 'none',
      summary: 'The web console: keys, usage charts, jobs, health and unavailable endpoints (asks for ADMIN_TOKEN, sent as a header)',
      handle({ ctx }) {
        secure(ctx);
        sendAsset(ctx, asset('index.html', 'text/html; charset=utf-8'), 'no-cache');
      },
    }),
    builtin({
      method: 'GET',
      path: `${CONSOLE_PATH}/:file`,
      auth: 'none',
      hidden: true,
      summary: "The console's script and stylesheet",
      handle({ ctx, pathParams }) {
        const type = Object.hasOwn(FILES, pathParams.file) ? FILES[pathParams.file] : undefined;
        if (!type) throw notFound('No such console file');
        secure(ctx);
        // the page links them with ?v=<hash of the bundle>, so a cached copy never goes stale
        sendAsset(ctx, asset(pathParams.file, type), 'public, max-age=31536000, immutable');
      },
    }),
  ];
}

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { makeAsset, type Asset } from './asset.js';

/**
 * The docs UI: Swagger UI from the swagger-ui-dist npm package, served from this
 * server (no CDN), on our own page that points it at the per-category documents. Only the files
 * the page uses (and their source maps) are exposed, never the package directory.
 */

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const PAGE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs-page');

/** Swagger UI's version: asset URLs carry it, so browsers may cache them for good. */
export const SWAGGER_UI_VERSION: string = JSON.parse(fs.readFileSync(path.join(SWAGGER_DIR, 'package.json'), 'utf8')).version;

const FILES: Record<string, { dir: string; type: string }> = {
  'swagger-ui.css': { dir: SWAGGER_DIR, type: 'text/css; charset=utf-8' },
  'swagger-ui.css.map': { dir: SWAGGER_DIR, type: 'application/json' },
  'swagger-ui-bundle.js': { dir: SWAGGER_DIR, type: 'application/javascript; charset=utf-8' },
  'swagger-ui-bundle.js.map': { dir: SWAGGER_DIR, type: 'application/json' },
  'swagger-ui-standalone-preset.js': { dir: SWAGGER_DIR, type: 'application/javascript; charset=utf-8' },
  'swagger-ui-standalone-preset.js.map': { dir: SWAGGER_DIR, type: 'application/json' },
  'favicon-16x16.png': { dir: SWAGGER_DIR, type: 'image/png' },
  'favicon-32x32.png': { dir: SWAGGER_DIR, type: 'image/png' },
  'init.js': { dir: PAGE_DIR, type: 'application/javascript; charset=utf-8' },
};

export const DOCS_ASSET_NAMES = Object.keys(FILES);

const loaded = new Map<string, Asset>();

/** A docs asset by file name, read on first use; undefined for anything not listed. */
export function docsAsset(name: string): Asset | undefined {
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return undefined;
  let asset = loaded.get(name);
  if (!asset) loaded.set(name, (asset = makeAsset(file.type, fs.readFileSync(path.join(file.dir, name)))));
  return asset;
}

let page: Asset | undefined;

/** The HTML page at /docs and /docs/. */
export function docsPage(): Asset {
  page ??= makeAsset(
    'text/html; charset=utf-8',
    Buffer.from(fs.readFileSync(path.join(PAGE_DIR, 'index.html'), 'utf8').replaceAll('{{version}}', SWAGGER_UI_VERSION)),
  );
  return page;
}

/**
 * The page's Content-Security-Policy: scripts and styles from this server only
 * (Swagger UI sets inline styles), and "Try it out" may call this server and the
 * public base URL the document names as its server.
 */
export function docsPolicy(publicBaseUrl: string): string {
  const origin = new URL(publicBaseUrl).origin;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    `connect-src 'self' ${origin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

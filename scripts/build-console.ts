/**
 * The web console (console/, served at /admin): its TypeScript, Preact and Chart.js
 * bundled by esbuild into build/console/ — console.js, console.css and index.html, whose
 * asset links carry a hash of the bundle so the server may let browsers cache them for
 * good. Run by `npm run build`; the server only reads the result (nothing is fetched from
 * a CDN, nothing is bundled at run time).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { BUILD_DIR, CONSOLE_DIR } from './engine-sources.mjs';

export const CONSOLE_BUILD_DIR = path.join(BUILD_DIR, 'console');

/** Bundle the console into `outDir`; returns the files written (unchanged ones keep their mtime). */
export async function buildConsole(outDir = CONSOLE_BUILD_DIR): Promise<string[]> {
  const result = await build({
    entryPoints: { console: path.join(CONSOLE_DIR, 'src', 'main.tsx') },
    bundle: true,
    write: false,
    outdir: outDir,
    format: 'esm',
    // the browsers that have <dialog> and :focus-visible, which the console uses
    target: ['chrome114', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  const files = new Map(result.outputFiles.map((f) => [path.basename(f.path), Buffer.from(f.contents)]));
  const version = crypto.createHash('sha256').update(files.get('console.js')!).update(files.get('console.css')!).digest('base64url').slice(0, 12);
  const html = fs.readFileSync(path.join(CONSOLE_DIR, 'index.html'), 'utf8').replaceAll('{{version}}', version);
  files.set('index.html', Buffer.from(html));
  fs.mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const [name, data] of files) {
    const file = path.join(outDir, name);
    if (fs.existsSync(file) && fs.readFileSync(file).equals(data)) continue;
    // a server reading the folder meanwhile sees the old file or the new one, never half of one;
    // two builds at once (test files in parallel) each write their own temporary file
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, file);
    written.push(name);
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const written = await buildConsole();
  console.log(`console: ${written.length ? written.join(', ') : 'unchanged'} in ${path.relative(process.cwd(), CONSOLE_BUILD_DIR)}`);
}

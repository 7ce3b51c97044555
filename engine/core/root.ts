import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root (the folder with package.json): engine modules run from
 * engine/ under tsx and from build/engine/ when built, so paths outside engine/
 * (endpoints/, templates/, build/) are taken from here, not from a module's own place.
 */
export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, 'package.json'))) return at;
    if (path.dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}

/**
 * A module beside `base` (pass import.meta.url) by its name without extension, as a
 * file URL: .ts under tsx, .js when built. For worker threads, which load a file.
 */
export function siblingModule(base: string, name: string): string {
  return new URL(`./${name}${path.extname(fileURLToPath(base))}`, base).href;
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Handler } from '../../contract/handler.js';

/**
 * Where code endpoints' handler modules are and how they load. A manifest names its
 * handler as `<category>/<name>` (the module's default export) or
 * `<category>/<name>#<export>` (one module serving a family of endpoints). Modules
 * sit beside this file: `.ts` under tsx, `.js` in build/engine.
 */
export const HANDLER_NAME = '^[a-z][a-z0-9-]*/[a-z0-9][a-z0-9-]*(#[A-Za-z_][A-Za-z0-9_]*)?$';

const EXT = path.extname(fileURLToPath(import.meta.url));

function parse(name: string): { module: string; exportName: string } {
  const [module, exportName = 'default'] = name.split('#');
  return { module: module!, exportName };
}

/** The handler module's file for a manifest's `handler` value. */
export function handlerFile(name: string): string {
  return fileURLToPath(new URL(`./${parse(name).module}${EXT}`, import.meta.url));
}

/** Why a handler name points at nothing (the compile step and lint report it), or undefined. */
export function missingHandler(name: string): string | undefined {
  const file = handlerFile(name);
  return fs.existsSync(file) ? undefined : `no handler module ${path.relative(process.cwd(), file) || file}`;
}

/** Import the handler (on the endpoint's first call) and check that it is a function. */
export async function loadHandler(name: string): Promise<Handler> {
  const { module, exportName } = parse(name);
  const loaded = (await import(new URL(`./${module}${EXT}`, import.meta.url).href)) as Record<string, unknown>;
  const run = loaded[exportName];
  if (typeof run !== 'function') throw new Error(`handler ${name}: ${module}${EXT} has no exported function "${exportName}"`);
  return run as Handler;
}

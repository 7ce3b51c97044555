import path from 'node:path';
import { ROOT } from './root.js';
import { ENV_EXAMPLE, SETTINGS_DOC, generate as generateSettings } from '../settings/generate.js';
import { engineMapDoc } from './engine-map.js';
import { errorsDoc } from './errors.js';
import { builtinRoutes, routesDoc } from './routes.js';

/**
 * Every file the docs generate from the code, with what it should hold now. `npm run
 * docs:generate` writes them; `npm run docs:check` fails when a committed one differs.
 */
export interface GeneratedFile {
  /** Relative to the checkout. */
  file: string;
  text: string;
}

export const ROUTES_DOC = path.join(ROOT, 'docs', 'using', 'built-in-routes.md');
export const ERRORS_DOC = path.join(ROOT, 'docs', 'using', 'errors.md');
export const ENGINE_MAP_DOC = path.join(ROOT, 'docs', 'contributing', 'engine-map.md');

export async function generatedFiles(): Promise<GeneratedFile[]> {
  const settings = generateSettings();
  const files = [
    { file: SETTINGS_DOC, text: settings.doc },
    { file: ENV_EXAMPLE, text: settings.envExample },
    { file: ROUTES_DOC, text: routesDoc(await builtinRoutes()) },
    { file: ERRORS_DOC, text: errorsDoc() },
    { file: ENGINE_MAP_DOC, text: engineMapDoc(ROOT) },
  ];
  return files.map(({ file, text }) => ({ file: path.relative(ROOT, file), text }));
}

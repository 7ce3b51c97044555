import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from './root.js';

/**
 * Whether the npm packages an endpoint needs (`requires.npm`) are installed. The heavy
 * optional features are npm workspaces under optional/ (optional/browser,
 * optional/obfuscator…): `npm ci` installs them all, `npm ci --omit=dev --workspaces=false`
 * none, `npm install -w optional/NAME` one. A package is looked for where Node would
 * resolve it from the engine, by its package.json alone: nothing is loaded, so asking
 * costs no memory (the obfuscator alone is 50 MiB) and works for packages whose `exports`
 * hide their package.json.
 */

/** Where a checkout's packages are found, and its optional/ features declared: the checkout's root by default, another one in tests. */
export interface PackageRoot {
  root: string;
}

const foundCache = new Map<string, boolean>();
const featuresCache = new Map<string, ReadonlyMap<string, string>>();

/** Is `name` installed where the engine's imports would find it? */
export function packageInstalled(name: string, { root }: PackageRoot = { root: ROOT }): boolean {
  const key = `${root}\0${name}`;
  let found = foundCache.get(key);
  if (found === undefined) {
    // the node_modules folders up from the engine: import() searches those, never require's global folders
    const dirs = (createRequire(path.join(root, 'engine', 'index.js')).resolve.paths(name) ?? []).filter((dir) => path.basename(dir) === 'node_modules');
    found = dirs.some((dir) => fs.existsSync(path.join(dir, name, 'package.json')));
    foundCache.set(key, found);
  }
  return found;
}

/** Each package an optional feature brings → that feature's folder (`playwright-core` → `optional/browser`). */
export function optionalFeatures({ root }: PackageRoot = { root: ROOT }): ReadonlyMap<string, string> {
  let features = featuresCache.get(root);
  if (!features) {
    const byPackage = new Map<string, string>();
    const dir = path.join(root, 'optional');
    const folders = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
    for (const folder of folders.map((entry) => entry.name).sort()) {
      const manifest = path.join(dir, folder, 'package.json');
      if (!fs.existsSync(manifest)) continue;
      const { dependencies = {} } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> };
      for (const name of Object.keys(dependencies)) byPackage.set(name, `optional/${folder}`);
    }
    features = byPackage;
    featuresCache.set(root, features);
  }
  return features;
}

/**
 * Why `names` are not all installed, with the command that installs them
 * (`npm package playwright-core not installed (npm install -w optional/browser)`), or
 * undefined when they are. A package of no optional feature is a root dependency: `npm ci`.
 */
export function missingPackages(names: readonly string[], where: PackageRoot = { root: ROOT }): string | undefined {
  const missing = names.filter((name) => !packageInstalled(name, where));
  if (!missing.length) return undefined;
  const features = optionalFeatures(where);
  const folders = [...new Set(missing.map((name) => features.get(name)))];
  const command = folders.includes(undefined) ? 'npm ci' : `npm install ${folders.map((folder) => `-w ${folder}`).join(' ')}`;
  return `npm ${missing.length > 1 ? 'packages' : 'package'} ${missing.join(', ')} not installed (${command})`;
}

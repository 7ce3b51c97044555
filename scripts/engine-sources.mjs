// Plain JavaScript: `npm start` reads this before anything is built (no tsx there).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ENGINE_DIR = path.join(ROOT, 'engine');
export const BUILD_DIR = path.join(ROOT, 'build');
/** The web console's source (scripts/build-console.ts bundles it into build/console/). */
export const CONSOLE_DIR = path.join(ROOT, 'console');
const STAMP = path.join(BUILD_DIR, 'engine-sources.json');

/**
 * Every file under `dir` with its size and mtime, keyed by its path relative to engine/.
 * @param {string} dir
 * @returns {Record<string, string>}
 */
function filesOf(dir) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith('.md')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const st = fs.statSync(file);
    out[path.relative(ENGINE_DIR, file)] = `${st.size}:${st.mtimeMs}`;
  }
  return out;
}

/**
 * Every file under engine/ with its size and mtime: what the build transpiles and
 * records, and what a start compares to tell whether the build is stale.
 * @returns {Record<string, string>}
 */
export function engineSources() {
  return filesOf(ENGINE_DIR);
}

/** The console's sources (as `../console/…`): an edit there makes the build stale too. */
function consoleSources() {
  return fs.existsSync(CONSOLE_DIR) ? filesOf(CONSOLE_DIR) : {};
}

/**
 * Record what was built: the engine sources the build started from, and the console's.
 * @param {Record<string, string>} sources
 */
export function recordBuilt(sources) {
  fs.writeFileSync(STAMP, JSON.stringify({ ...sources, ...consoleSources() }));
}

/** True when build/engine is missing or was built from other sources than engine/ and console/ hold now. */
export function buildIsStale() {
  let built;
  try {
    built = JSON.parse(fs.readFileSync(STAMP, 'utf8'));
  } catch {
    return true;
  }
  const now = { ...engineSources(), ...consoleSources() };
  const names = Object.keys(now);
  return names.length !== Object.keys(built).length || names.some((name) => built[name] !== now[name]);
}

import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the executables endpoints need are found (`requires.bin`, a code endpoint's
 * `{ name, bin }` upstream, the tools handlers spawn): an override variable or PATH.
 * Its own module so adapters can ask without importing the registry, which imports them.
 */
const pathCache = new Map<string, boolean>();

/**
 * Is an executable available: named by its override variable (`yt-dlp` → YTDLP_PATH,
 * `ffmpeg` → FFMPEG_PATH) when that is set, else found on PATH?
 */
export function onPath(bin: string, env: Readonly<Record<string, string>>): boolean {
  return locate(bin, env).ok;
}

/** Where a binary was looked for: its override variable when that is set (a wrong one is not papered over by PATH), else PATH. */
export function locate(bin: string, env: Readonly<Record<string, string>>): { ok: boolean; override?: string } {
  const variable = overrideVariable(bin);
  if (env[variable]) return { ok: executable(env[variable]), override: variable };
  const key = `${bin}\0${env.PATH ?? ''}`;
  let found = pathCache.get(key);
  if (found === undefined) {
    const dirs = (env.PATH ?? process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
    found = path.isAbsolute(bin) ? executable(bin) : dirs.some((dir) => executable(path.join(dir, bin)));
    pathCache.set(key, found);
  }
  return { ok: found };
}

/** The variable that names a binary's location: `yt-dlp` → YTDLP_PATH. */
export const overrideVariable = (bin: string) => `${bin.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}_PATH`;

/** What to spawn for a binary: its override variable's path when set, else the name (looked up on PATH). */
export const binaryPath = (bin: string, env: Readonly<Record<string, string>>): string => env[overrideVariable(bin)] || bin;

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

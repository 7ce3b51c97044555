// Settings from an env file for `npm start`: `.env` in the working directory when it exists,
// or the file ENV_FILE names (which must exist). A variable already in the environment wins
// over the file, as with Node's --env-file, so a host overrides one setting for one run
// without editing the file. Parsed by Node's own util.parseEnv (the dotenv format: `KEY=value`,
// quotes, `export`, # comments). Plain JavaScript: start.mjs runs it before anything is built.
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';

/**
 * Load the env file into `env` (process.env by default), leaving variables already set alone.
 * @param {Record<string, string | undefined>} env
 * @param {string} cwd
 * @returns {{ file?: string, loaded: string[] }} the file read (none when there is no `.env`) and the variables it set
 */
export function loadEnvFile(env = process.env, cwd = process.cwd()) {
  const named = env.ENV_FILE;
  const file = path.resolve(cwd, named || '.env');
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    // no .env is the common case; a file the host named and that is not there is a mistake to report
    if (!named && /** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return { loaded: [] };
    throw new Error(`cannot read the env file ${file}${named ? ' (ENV_FILE)' : ''}: ${/** @type {Error} */ (err).message}`);
  }
  const loaded = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    loaded.push(name);
  }
  return { file, loaded };
}

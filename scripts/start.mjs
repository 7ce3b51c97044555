// `npm start`: run the built engine, rebuilding first when engine/ changed since the
// last build (a fresh checkout without `npm ci`'s build, or an edited source).
// Plain JavaScript on purpose: it runs before anything is built, and tsx is what it avoids.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, ROOT, buildIsStale } from './engine-sources.mjs';
import { loadEnvFile } from './env-file.mjs';

// .env (or ENV_FILE) first: the build and the engine both see the settings it holds
try {
  const { file, loaded } = loadEnvFile();
  if (file) process.stderr.write(`manifold: ${loaded.length} settings from ${path.relative(process.cwd(), file) || file}\n`);
} catch (err) {
  process.stderr.write(`manifold: cannot start: ${err.message}\n`);
  process.exit(1);
}

if (buildIsStale()) {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], { stdio: 'inherit' });
}
await import(pathToFileURL(path.join(BUILD_DIR, 'engine', 'app', 'main.js')).href);

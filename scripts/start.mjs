// `npm start`: run the built engine, rebuilding first when engine/ changed since the
// last build (a fresh checkout without `npm ci`'s build, or an edited source). With
// `--no-build` (the image's CMD: the image was built with its build) the build is run as
// it is.
// Plain JavaScript on purpose: it runs before anything is built, and tsx is what it avoids.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILD_DIR, ROOT, buildIsStale } from './engine-sources.mjs';
import { loadEnvFile } from './env-file.mjs';
import { mallocRestartEnv } from './malloc-env.mjs';
import { missingV8Args } from './v8-args.mjs';

const ownEnv = { ...process.env };
// .env (or ENV_FILE) first: the build and the engine both see the settings it holds
let envFile;
try {
  envFile = loadEnvFile();
} catch (err) {
  process.stderr.write(`manifold: cannot start: ${err.message}\n`);
  process.exit(1);
}

// glibc reads its allocator settings once, when a process starts, and V8 lays out the main
// thread's heap then: the server restarts in place (same process id, nothing run yet; it
// reads the env file again) with the settings malloc-env.mjs and the flags v8-args.mjs
// explain. Node 20 has no execve: there only the real environment and command line count.
const restartEnv = mallocRestartEnv(ownEnv, process.env, process.platform);
const v8Args = missingV8Args(process.execArgv, process.env.NODE_OPTIONS, process.env.MEMORY_PROFILE);
if ((restartEnv || v8Args.length) && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...v8Args, ...process.execArgv, ...process.argv.slice(1)], restartEnv ?? ownEnv);
}
if (envFile.file) process.stderr.write(`manifold: ${envFile.loaded.length} settings from ${path.relative(process.cwd(), envFile.file) || envFile.file}\n`);

if (!process.argv.slice(2).includes('--no-build') && buildIsStale()) {
  execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts', 'build.ts')], { stdio: 'inherit' });
}
await import(pathToFileURL(path.join(BUILD_DIR, 'engine', 'app', 'main.js')).href);

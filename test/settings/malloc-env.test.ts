/**
 * glibc's allocator settings for the server (scripts/malloc-env.mjs): which environment
 * `npm start` restarts itself with, and, on a Node with process.execve, that the process
 * listening is the same one, running with them.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import t, { type Test } from 'tap';
import { ROOT } from '../../engine/core/root.js';
import { MALLOC_DEFAULTS, SMALL_PROFILE_MALLOC, mallocDefaultsFor, mallocRestartEnv } from '../../scripts/malloc-env.mjs';
import { SMALL_PROFILE_V8_ARGS, V8_ARGS, missingV8Args, v8ArgsFor } from '../../scripts/v8-args.mjs';
import { tempDataDir } from '../support/serve.js';

t.test('the defaults the host left unset, the host winning, a setting from the env file applied', async (t) => {
  t.same(mallocRestartEnv({ A: '1' }, { A: '1' }, 'linux'), { A: '1', ...MALLOC_DEFAULTS });
  t.same(mallocRestartEnv({ MALLOC_ARENA_MAX: '4' }, { MALLOC_ARENA_MAX: '4' }, 'linux'), { ...MALLOC_DEFAULTS, MALLOC_ARENA_MAX: '4' }, 'the host chose 4');
  t.same(
    mallocRestartEnv({}, { MALLOC_ARENA_MAX: '1' }, 'linux'),
    { ...MALLOC_DEFAULTS, MALLOC_ARENA_MAX: '1' },
    'set in the env file only: glibc read the environment before the file, so restart with it',
  );
  t.equal(mallocRestartEnv({ ...MALLOC_DEFAULTS }, { ...MALLOC_DEFAULTS }, 'linux'), undefined, 'already running with them: no restart');
  t.equal(mallocRestartEnv({}, { MALLOC_TUNING: 'off' }, 'linux'), undefined, 'MALLOC_TUNING=off');
  t.equal(mallocRestartEnv({}, {}, 'darwin'), undefined, 'not glibc');
});

t.test('MEMORY_PROFILE=small maps blocks from 16 KiB', async (t) => {
  t.same(mallocDefaultsFor(undefined), MALLOC_DEFAULTS);
  t.same(mallocDefaultsFor(' small'), { ...MALLOC_DEFAULTS, MALLOC_MMAP_THRESHOLD_: '16384' });
  t.same(SMALL_PROFILE_MALLOC, { MALLOC_MMAP_THRESHOLD_: '16384' });
  t.same(mallocRestartEnv({}, { MEMORY_PROFILE: 'small' }, 'linux'), { ...MALLOC_DEFAULTS, ...SMALL_PROFILE_MALLOC }, 'the profile from the env file');
  t.same(
    mallocRestartEnv({ MALLOC_MMAP_THRESHOLD_: '65536' }, { MALLOC_MMAP_THRESHOLD_: '65536', MEMORY_PROFILE: 'small' }, 'linux'),
    { ...MALLOC_DEFAULTS, MALLOC_MMAP_THRESHOLD_: '65536' },
    "the host's own value wins over its profile's",
  );
});

t.test('the image leaves them to its command (start.mjs): an ENV line would read as the host choosing them', async (t) => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  t.notMatch(dockerfile, /^ENV\b[^\n]*\b(?:MI)?MALLOC_/m);
});

t.test('the main thread V8 flags: added unless the host gave them on the command line or in NODE_OPTIONS', async (t) => {
  t.same(missingV8Args([], undefined), V8_ARGS);
  t.same(missingV8Args(['--max-semi-space-size=16'], undefined), [], 'on the command line');
  t.same(missingV8Args([], '--enable-source-maps --max_semi_space_size=2'), [], 'in NODE_OPTIONS, underscores or not');
  t.same(missingV8Args(['--max-old-space-size=512'], ''), V8_ARGS, 'another flag');
});

t.test('MEMORY_PROFILE=small adds --optimize-for-size, unless the host said otherwise', async (t) => {
  t.same(v8ArgsFor(undefined), V8_ARGS);
  t.same(v8ArgsFor('default'), V8_ARGS);
  t.same(v8ArgsFor(' small '), [...V8_ARGS, '--optimize-for-size']);
  t.same(SMALL_PROFILE_V8_ARGS, ['--optimize-for-size']);
  t.same(missingV8Args(['--max-semi-space-size=8'], undefined, 'small'), ['--optimize-for-size'], 'the image gives the default flags itself');
  t.same(missingV8Args(['--no-optimize-for-size'], undefined, 'small'), V8_ARGS, 'its --no- form');
  t.same(missingV8Args(['--optimize_for_size', '--max-semi-space-size=4'], undefined, 'small'), [], 'underscores');
});

t.test("the image runs npm start's launcher with the default flags, without its build check", async (t) => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile);
  t.ok(cmd, 'a CMD line');
  const args = JSON.parse(cmd![1]) as string[];
  t.same(args, ['node', ...V8_ARGS, 'scripts/start.mjs', '--no-build']);
});

const canRestart = typeof (process as { execve?: unknown }).execve === 'function' && process.platform === 'linux';

/** Starts `node <args>` from the project as a host would, and reads the listening process's environment and command line. */
async function startAndRead(t: Test, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    // from the project, as npm start runs (a stale build is rebuilt with the project's tsx)
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDataDir(), ENV_FILE: '/dev/null', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => void child.kill());
  const lines = readline.createInterface({ input: child.stdout });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`exited ${code}`))));
  await Promise.race([exited, new Promise<void>((resolve) => lines.on('line', (line) => line.includes('"listening"') && resolve()))]);
  const environ = new Map(
    fs
      .readFileSync(`/proc/${child.pid}/environ`, 'utf8')
      .split('\0')
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { environ, cmdline: fs.readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0') };
}

const needsExecve = { skip: canRestart ? false : 'needs Node 22.15+ on Linux (process.execve)' };

t.test('npm start runs the server with them, in the same process', needsExecve, async (t) => {
  const { environ, cmdline } = await startAndRead(t, [path.join(ROOT, 'scripts', 'start.mjs')], { MALLOC_ARENA_MAX: '4' });
  t.equal(environ.get('MALLOC_ARENA_MAX'), '4', "the host's value");
  t.equal(environ.get('MALLOC_MMAP_THRESHOLD_'), MALLOC_DEFAULTS.MALLOC_MMAP_THRESHOLD_, 'the default for what the host left unset');
  t.equal(environ.get('MALLOC_TRIM_THRESHOLD_'), MALLOC_DEFAULTS.MALLOC_TRIM_THRESHOLD_);
  for (const arg of V8_ARGS) t.ok(cmdline.includes(arg), `started with ${arg}`);
  t.notOk(cmdline.includes('--optimize-for-size'), 'not with the default profile');
});

t.test("the image's command with MEMORY_PROFILE=small in the env file: restarted with its flag and allocator settings", needsExecve, async (t) => {
  const envFile = path.join(tempDataDir(), 'small.env');
  fs.writeFileSync(envFile, 'MEMORY_PROFILE=small\n');
  // as in the image: no allocator variable set, so the profile's own apply
  const { environ, cmdline } = await startAndRead(t, [...V8_ARGS, path.join(ROOT, 'scripts', 'start.mjs'), '--no-build'], { ENV_FILE: envFile });
  t.same(
    cmdline.filter((arg) => arg.startsWith('--')),
    [...SMALL_PROFILE_V8_ARGS, ...V8_ARGS, '--no-build'],
    'the added flag first, then what it was started with',
  );
  t.equal(environ.get('MALLOC_MMAP_THRESHOLD_'), SMALL_PROFILE_MALLOC.MALLOC_MMAP_THRESHOLD_, "the profile's mmap threshold");
  t.equal(environ.get('MALLOC_ARENA_MAX'), MALLOC_DEFAULTS.MALLOC_ARENA_MAX, 'the others as with the default profile');
  t.equal(environ.get('MIMALLOC_PURGE_DELAY'), MALLOC_DEFAULTS.MIMALLOC_PURGE_DELAY);
});

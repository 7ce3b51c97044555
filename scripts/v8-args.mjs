// V8 settings that only the server's command line can give (the heap is laid out when the
// isolate starts): `npm start` (start.mjs, which the image's CMD runs too) restarts itself
// with them when they are missing.
//
// Why (bench/memory; Memory in docs/operating/performance.md): Node 24 lets the young
// generation's semi-spaces grow to 16 MiB each on a machine with this much memory, and the
// server's boot (1,600 manifests compiled, their validators) leaves them grown: 199 MiB RSS
// idle after boot, 180 MiB with 8 MiB semi-spaces, at the same CPU per request
// (bench/engine in-process, /api/fun/quote: 23.9 and 23.6 µs default, 24.2 and 22.9 µs with
// 8). 4 MiB saved 11 MiB more but cost 40-80% more CPU per request: too small.
//
// MEMORY_PROFILE=small adds --optimize-for-size: V8's own trade of speed for memory, for
// every isolate of the process (the workers' too): smaller heaps, grown more slowly and
// compacted sooner. bench/memory's mix, small, against 09c4282 in the same rounds: 322 ->
// 292 MiB RSS after the mix (7e711b1); the server's CPU for the mix 28.3 -> 32.2 s (+14%),
// the code tools' 6.0 -> 8.2 (their JavaScript runs less optimised), effects and OCR
// (native and WebAssembly) +2-20%. Too dear for the default profile.
// Plain JavaScript: it runs before anything is built.

/** The flags of every profile, each `--name` or `--name=value`. */
export const V8_ARGS = Object.freeze(['--max-semi-space-size=8']);

/** What MEMORY_PROFILE=small adds. */
export const SMALL_PROFILE_V8_ARGS = Object.freeze(['--optimize-for-size']);

/**
 * The flags for a MEMORY_PROFILE value (as the host wrote it; the engine refuses one it does not know).
 * @param {string | undefined} profile
 * @returns {readonly string[]}
 */
export function v8ArgsFor(profile) {
  return profile?.trim() === 'small' ? [...V8_ARGS, ...SMALL_PROFILE_V8_ARGS] : V8_ARGS;
}

/** `--max_semi_space_size=4` and `--no-optimize-for-size` name `--max-semi-space-size` and `--optimize-for-size`. */
const flagName = (arg) =>
  arg
    .split('=')[0]
    .replaceAll('_', '-')
    .replace(/^--no-/, '--');

/**
 * The flags for `profile` the process was not started with: neither on its command line
 * (`execArgv`) nor in NODE_OPTIONS, either of which wins, as the host chose it (its
 * `--no-` form too).
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @param {string | undefined} [profile] MEMORY_PROFILE
 * @returns {string[]}
 */
export function missingV8Args(execArgv, nodeOptions, profile) {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(flagName);
  return v8ArgsFor(profile).filter((arg) => !given.includes(flagName(arg)));
}

// V8 settings for the server's main thread that only its command line can give (the heap
// is laid out when the isolate starts): `npm start` (start.mjs) restarts itself with them
// when they are missing, and the image's CMD passes them.
//
// Why (bench/memory; Memory in docs/operating/performance.md): Node 24 lets the young
// generation's semi-spaces grow to 16 MiB each on a machine with this much memory, and the
// server's boot (1,600 manifests compiled, their validators) leaves them grown: 199 MiB RSS
// idle after boot, 180 MiB with 8 MiB semi-spaces, at the same CPU per request
// (bench/engine in-process, /api/fun/quote: 23.9 and 23.6 µs default, 24.2 and 22.9 µs with
// 8). 4 MiB saved 11 MiB more but cost 40-80% more CPU per request: too small.
// Plain JavaScript: it runs before anything is built.

/** The flags, each `--name=value`. */
export const V8_ARGS = Object.freeze(['--max-semi-space-size=8']);

/**
 * The flags of V8_ARGS the process was not started with: neither on its command line
 * (`execArgv`) nor in NODE_OPTIONS, either of which wins, as the host chose it.
 * @param {readonly string[]} execArgv
 * @param {string | undefined} nodeOptions
 * @returns {string[]}
 */
export function missingV8Args(execArgv, nodeOptions) {
  const given = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((arg) => arg.split('=')[0].replaceAll('_', '-'));
  return V8_ARGS.filter((arg) => !given.includes(arg.split('=')[0]));
}

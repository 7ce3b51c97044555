// The allocators' settings for the server process (glibc's, and the canvas library's
// mimalloc), which they read once, when the process starts: `npm start` (start.mjs, which the
// image's command runs too) restarts itself with them in place when the host has not set them.
//
// Why (bench/memory; Memory in docs/operating/performance.md): every worker thread that draws with Skia,
// encodes with libvips or runs onnxruntime gets a malloc arena of its own (up to 8 per core)
// and glibc raises its mmap threshold as large blocks are freed, so the next canvases and
// pixel buffers come from those arenas and stay there once freed. Two render workers held
// ~520 MiB after 100 renders each, ~410 MiB after they exited; with two arenas and a fixed
// 64 KiB threshold (large blocks mapped and unmapped on their own) 230 MiB and 150 MiB.
// The canvas library (@napi-rs/canvas: Skia) allocates through its own mimalloc, which keeps
// freed pages in a 1 GiB arena until the thread that owns them allocates again, so after the
// render workers retired ~60 MiB stayed resident there; purged at once when freed, ~10 MiB
// (MIMALLOC_PURGE_DELAY=0; bench/memory's mix, MEMORY_PROFILE=small: 368 -> 313 MiB).
// MEMORY_PROFILE=small mmaps blocks from 16 KiB instead of 64: what the workers' compilers,
// libvips and the OCR worker free between 16 and 64 KiB no longer stays fragmented in the
// main arena (bench/memory's mix, small, with --optimize-for-size, each against 09c4282 in
// its own run: 292 MiB after it at 7e711b1, 272 at 788830a; the mix's CPU unchanged).
// Plain JavaScript: it runs before anything is built.

/** The settings and the value each takes when the host has not set it. */
export const MALLOC_DEFAULTS = Object.freeze({
  // arenas for all threads together: the main thread's and one more
  MALLOC_ARENA_MAX: '2',
  // fixed (which also stops glibc moving it up): blocks from 64 KiB are mmapped, and unmapped when freed
  MALLOC_MMAP_THRESHOLD_: '65536',
  // free memory at the top of an arena above this goes back to the system
  MALLOC_TRIM_THRESHOLD_: '131072',
  // the canvas library's mimalloc: freed pages go back to the system at once, not when their thread allocates again
  MIMALLOC_PURGE_DELAY: '0',
});

/** What MEMORY_PROFILE=small changes of them. */
export const SMALL_PROFILE_MALLOC = Object.freeze({ MALLOC_MMAP_THRESHOLD_: '16384' });

/**
 * The settings for a MEMORY_PROFILE value (as the host wrote it).
 * @param {string | undefined} profile
 * @returns {Readonly<Record<string, string>>}
 */
export function mallocDefaultsFor(profile) {
  return profile?.trim() === 'small' ? { ...MALLOC_DEFAULTS, ...SMALL_PROFILE_MALLOC } : MALLOC_DEFAULTS;
}

/**
 * The environment to restart the server with, or undefined when it already runs with the
 * settings it should have. `before` is the process's own environment, `env` the same once
 * the env file is read: a setting the host gave in either wins over the default (its
 * MEMORY_PROFILE's), one given only in the file needs the restart as well (glibc read the
 * environment before the file).
 * Nothing on systems other than Linux, and nothing with MALLOC_TUNING=off. musl (Alpine)
 * ignores these names, so they cost nothing there.
 * @param {Record<string, string | undefined>} before
 * @param {Record<string, string | undefined>} env
 * @param {string} platform
 * @returns {Record<string, string | undefined> | undefined}
 */
export function mallocRestartEnv(before, env, platform) {
  if (platform !== 'linux' || env.MALLOC_TUNING === 'off') return undefined;
  const changed = Object.entries(mallocDefaultsFor(env.MEMORY_PROFILE))
    .map(([name, value]) => [name, env[name] ?? value])
    .filter(([name, value]) => before[name] !== value);
  return changed.length ? { ...before, ...Object.fromEntries(changed) } : undefined;
}

export const MALLOC_DEFAULTS: Readonly<Record<'MALLOC_ARENA_MAX' | 'MALLOC_MMAP_THRESHOLD_' | 'MALLOC_TRIM_THRESHOLD_' | 'MIMALLOC_PURGE_DELAY', string>>;
export const SMALL_PROFILE_MALLOC: Readonly<Record<'MALLOC_MMAP_THRESHOLD_', string>>;
export function mallocDefaultsFor(profile: string | undefined): Readonly<Record<string, string>>;
export function mallocRestartEnv(
  before: Record<string, string | undefined>,
  env: Record<string, string | undefined>,
  platform: string,
): Record<string, string | undefined> | undefined;

export const MALLOC_DEFAULTS: Readonly<Record<'MALLOC_ARENA_MAX' | 'MALLOC_MMAP_THRESHOLD_' | 'MALLOC_TRIM_THRESHOLD_' | 'MIMALLOC_PURGE_DELAY', string>>;
export function mallocRestartEnv(
  before: Record<string, string | undefined>,
  env: Record<string, string | undefined>,
  platform: string,
): Record<string, string | undefined> | undefined;

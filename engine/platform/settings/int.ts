/**
 * Integer settings from the environment, read one way everywhere: unset (or empty)
 * gives the default; anything else must be decimal digits within the allowed range,
 * or the boot stops with a message naming the variable. A typo never silently means
 * the default. Kept apart from config.ts so each feature's own settings module
 * (jobs, media, temp mail, storage, database) imports the parsers, not the Config.
 */
type Env = Readonly<Record<string, string | undefined>>;

/** `env[name]` as an integer of at least `min`, undefined when unset; `allowed` says what may be set, for the message. */
function intSetting(env: Env, name: string, min: number, allowed: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  // digits only: "1e3", "0x10", "5.0" and " " are typos here, though Number() would take them
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new Error(`${name} must be ${allowed}, got "${raw}"`);
  return n;
}

/** An integer ≥ 0 (0 is meaningful: no limit, keep forever…), `fallback` when unset. */
export const nonNegativeInt = (env: Env, name: string, fallback: number): number => intSetting(env, name, 0, 'a non-negative integer') ?? fallback;

/** An integer ≥ 1 (a size, a count, a time), `fallback` when unset. */
export const positiveInt = (env: Env, name: string, fallback: number): number => intSetting(env, name, 1, 'a positive integer') ?? fallback;

/** An integer ≥ 1, or undefined when unset: a limit that may be absent, or whose default belongs to its user. */
export const optionalPositiveInt = (env: Env, name: string): number | undefined => intSetting(env, name, 1, 'a positive integer (or unset)');

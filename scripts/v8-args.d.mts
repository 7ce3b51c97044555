export const V8_ARGS: readonly string[];
export const SMALL_PROFILE_V8_ARGS: readonly string[];
export function v8ArgsFor(profile: string | undefined): readonly string[];
export function missingV8Args(execArgv: readonly string[], nodeOptions: string | undefined, profile?: string): string[];

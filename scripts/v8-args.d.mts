export const V8_ARGS: readonly string[];
export function missingV8Args(execArgv: readonly string[], nodeOptions: string | undefined): string[];

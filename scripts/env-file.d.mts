export function loadEnvFile(env?: Record<string, string | undefined>, cwd?: string): { file?: string; loaded: string[] };

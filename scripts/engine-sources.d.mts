export const ROOT: string;
export const ENGINE_DIR: string;
export const BUILD_DIR: string;
export const CONSOLE_DIR: string;
export function engineSources(): Record<string, string>;
export function recordBuilt(sources: Record<string, string>): void;
export function buildIsStale(): boolean;

import fs from 'node:fs';
import path from 'node:path';

/** Files and bytes of one class of stored data (uploads, generated files, media cache, temp). */
export interface ClassUsage {
  files: number;
  bytes: number;
}

export const emptyUsage = (): ClassUsage => ({ files: 0, bytes: 0 });

export const addTo = (usage: ClassUsage, bytes: number): void => {
  usage.files++;
  usage.bytes += bytes;
};

/** A regular file found under a directory. */
export interface FoundFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * Every regular file under `dir` (none when it does not exist). Entries that vanish
 * while walking (another process removing them) are skipped, not errors.
 */
export async function filesUnder(dir: string): Promise<FoundFile[]> {
  const entries = await fs.promises.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  const found: FoundFile[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const stat = await fs.promises.stat(file).catch(() => undefined);
    if (stat) found.push({ path: file, size: stat.size, mtimeMs: stat.mtimeMs });
  }
  return found;
}

/** Files and bytes under `dir`. */
export async function usageOf(dir: string): Promise<ClassUsage> {
  const usage = emptyUsage();
  for (const file of await filesUnder(dir)) addTo(usage, file.size);
  return usage;
}

/** When anything under `path` (a file, or a directory and its tree) last changed, in epoch ms; undefined when it is gone. */
export async function lastChange(target: string): Promise<number | undefined> {
  const stat = await fs.promises.stat(target).catch(() => undefined);
  if (!stat) return undefined;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const file of await filesUnder(target)) newest = Math.max(newest, file.mtimeMs);
  return newest;
}

import fs from 'node:fs';

/**
 * The files and directories a registry load read, with what they looked like then
 * (size + mtime, directory listings). compiled.ts stores this beside the compiled
 * registry to tell whether it is still current.
 */
export class Sources {
  readonly files: Record<string, string> = {};
  readonly dirs: Record<string, string[]> = {};

  file(path: string): void {
    this.files[path] = fileStamp(path);
  }

  dir(path: string): void {
    this.dirs[path] = dirListing(path);
  }
}

export function fileStamp(path: string): string {
  try {
    const st = fs.statSync(path);
    return `${st.size}:${st.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

export function dirListing(path: string): string[] {
  try {
    return fs.readdirSync(path).sort();
  } catch {
    return [];
  }
}

import fs from 'node:fs';

/**
 * The process's open-files limit (RLIMIT_NOFILE), for the boot log. Every connection,
 * upload, stored file being read and upstream socket takes a descriptor; at the common
 * default of 1,024, a thousand slow connections leave none for anyone else. Node raises
 * its soft limit to the hard one at start (there is no setrlimit in Node to do more), so
 * the hard limit is what the host sets: Docker `ulimits: nofile`, systemd `LimitNOFILE`,
 * `ulimit -Hn` in a shell (docs/operating/security.md, "Slow clients and open files").
 */
export interface OpenFilesLimit {
  soft: number;
  hard: number;
}

/** Below this the boot log warns (it leaves room for ten addresses at the default CLIENT_MAX_CONNECTIONS and the rest). */
export const LOW_OPEN_FILES = 4096;

/** Read from /proc (Linux); undefined elsewhere or when unlimited. */
export function openFilesLimit(limitsFile = '/proc/self/limits'): OpenFilesLimit | undefined {
  let text: string;
  try {
    text = fs.readFileSync(limitsFile, 'utf8');
  } catch {
    return undefined;
  }
  const row = /^Max open files\s+(\d+)\s+(\d+)/m.exec(text);
  return row ? { soft: Number(row[1]), hard: Number(row[2]) } : undefined;
}

/** The boot warning for a limit below LOW_OPEN_FILES, or undefined. */
export function lowOpenFilesWarning(limit: OpenFilesLimit | undefined): string | undefined {
  if (!limit || limit.soft >= LOW_OPEN_FILES) return undefined;
  return (
    `the open-files limit is ${limit.soft} (hard limit ${limit.hard}): a thousand slow or idle connections would leave no descriptor ` +
    'for other clients, whose connections are then reset; raise the hard limit (Docker: ulimits nofile; systemd: LimitNOFILE; shell: ulimit -Hn), ' +
    'Node raises its own limit to it at start'
  );
}

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lastChange, usageOf, type ClassUsage } from './disk-usage.js';

/**
 * Temp files (uploads being received, media jobs, files being written) live in a
 * directory of their own per store instance, DATA_DIR/tmp/proc-<pid>-<random>-<host>,
 * so that what a crashed process left behind can be told from what a live one (an
 * API and a worker sharing DATA_DIR) is still writing: at start and on every janitor
 * pass, directories of processes that no longer run on this host are removed whole,
 * as are loose entries (from versions before per-process directories). Within the
 * instance's own directory, an entry nothing has written to for IDLE_MS is a leak of
 * some failure path and goes too. close() removes the instance's directory.
 */

/** Longer than any legitimate pause in writing a temp file (media jobs time out after 15 minutes). */
export const TEMP_IDLE_MS = 60 * 60 * 1000;
/** A directory of another host (DATA_DIR on a network share) can't be checked for a live owner: removed only when this idle. */
const FOREIGN_IDLE_MS = 24 * 60 * 60 * 1000;

const OWNED = /^proc-(\d+)-[a-f0-9]+-(.+)$/;
const host = os.hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

export interface TempArea {
  /** This instance's directory. */
  readonly dir: string;
  /** Remove what dead processes left and this instance's entries idle for `idleMs`; returns entries removed. */
  sweep(idleMs?: number, now?: number): Promise<number>;
  /** Files and bytes under DATA_DIR/tmp, every instance's. */
  measure(): Promise<ClassUsage>;
  /** Remove this instance's directory (shutdown). */
  remove(): Promise<void>;
}

export function openTempArea(dataDir: string): TempArea {
  const root = path.join(dataDir, 'tmp');
  const dir = path.join(root, `proc-${process.pid}-${crypto.randomBytes(4).toString('hex')}-${host}`);
  fs.mkdirSync(dir, { recursive: true });
  const own = path.basename(dir);

  const stale = async (name: string, now: number, idleMs: number): Promise<boolean> => {
    if (name === own) return false;
    const owned = OWNED.exec(name);
    if (!owned) return true; // loose: not any live instance's
    if (owned[2] === host) return !alive(Number(owned[1]));
    const changed = await lastChange(path.join(root, name));
    return changed !== undefined && now - changed > Math.max(idleMs, FOREIGN_IDLE_MS);
  };

  return {
    dir,
    async sweep(idleMs = TEMP_IDLE_MS, now = Date.now()) {
      let removed = 0;
      for (const name of await fs.promises.readdir(root).catch(() => [])) {
        if (!(await stale(name, now, idleMs))) continue;
        await fs.promises.rm(path.join(root, name), { recursive: true, force: true });
        removed++;
      }
      for (const name of await fs.promises.readdir(dir).catch(() => [])) {
        const changed = await lastChange(path.join(dir, name));
        if (changed === undefined || now - changed <= idleMs) continue;
        await fs.promises.rm(path.join(dir, name), { recursive: true, force: true });
        removed++;
      }
      return removed;
    },
    measure: () => usageOf(root),
    async remove() {
      await fs.promises.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether a process with this id runs here (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

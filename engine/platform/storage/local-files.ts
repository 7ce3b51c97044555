import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { notFound } from '../../core/errors.js';
import { filesUnder } from './disk-usage.js';
import { describeBytes, describeFile, evictOldest, isStoredName, tallyClasses, type EvictionCandidate, type FileStore } from './files.js';
import { openTempArea } from './temp-area.js';

/**
 * The default backend: files on local disk under DATA_DIR/files/<first two hex
 * digits>/<name>; pins as empty marker files in DATA_DIR/pinned-files, generated
 * marks likewise in DATA_DIR/generated-files (dated by their modification time);
 * temp files under DATA_DIR/tmp (same filesystem, so adopting one is a rename).
 */
export function createLocalFileStore(dataDir: string, publicBaseUrl: string): FileStore {
  const root = path.join(dataDir, 'files');
  // pins and marks live beside the store, not in it, so files/ holds exactly the hosted files
  const pins = path.join(dataDir, 'pinned-files');
  const marks = path.join(dataDir, 'generated-files');
  const temp = openTempArea(dataDir);
  const tempDir = temp.dir;
  for (const dir of [root, pins, marks]) fs.mkdirSync(dir, { recursive: true });
  const where = (name: string) => path.join(root, name.slice(0, 2), name);
  const markOf = (name: string) => path.join(marks, name);
  const markTime = (name: string) =>
    fs.promises.stat(markOf(name)).then(
      (s) => s.mtimeMs,
      () => undefined,
    );

  /**
   * Delete an expired generated file without racing put(): the file is moved aside first,
   * then the mark read again. put() marks before it looks for the file, so a put that
   * saw the file still in place has refreshed the mark by now, and the file goes back.
   */
  const expire = async (name: string, before: number): Promise<boolean> => {
    const aside = path.join(tempDir, `expiring-${name}`);
    if (
      !(await fs.promises.rename(where(name), aside).then(
        () => true,
        () => false,
      ))
    ) {
      await fs.promises.rm(markOf(name), { force: true }); // the file is gone already
      return false;
    }
    const marked = await markTime(name);
    if (marked !== undefined && marked >= before) {
      await fs.promises.rename(aside, where(name));
      return false;
    }
    await fs.promises.rm(aside, { force: true });
    await fs.promises.rm(markOf(name), { force: true });
    return true;
  };

  return {
    tempDir,
    temp,
    async put(data, { ext }) {
      const file = describeBytes(publicBaseUrl, data, ext);
      await fs.promises.writeFile(markOf(file.name), ''); // dated now: the expiry restarts
      const target = where(file.name);
      if (!fs.existsSync(target)) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        // write-then-rename so a reader never sees a half-written file
        // a name of its own: two puts of the same bytes at once (two jobs making one file) must not share it
        const partial = path.join(tempDir, `${file.sha256}.${crypto.randomUUID()}`);
        try {
          await fs.promises.writeFile(partial, data);
          await fs.promises.rename(partial, target);
        } finally {
          await fs.promises.rm(partial, { force: true });
        }
      }
      return file;
    },
    async adopt(tempPath, { ext, sha256, size }) {
      const file = describeFile(publicBaseUrl, sha256, ext, size);
      const target = where(file.name);
      try {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        if (!fs.existsSync(target)) await fs.promises.rename(tempPath, target);
      } finally {
        await fs.promises.rm(tempPath, { force: true });
      }
      return file;
    },
    async open(name) {
      if (!isStoredName(name)) return undefined;
      const target = where(name);
      const stat = await fs.promises.stat(target).catch(() => undefined);
      if (!stat) return undefined;
      return {
        size: stat.size,
        async read(range) {
          const stream = fs.createReadStream(target, range);
          // surface a file removed since open() here, before any header is sent
          await once(stream, 'open').catch(() => {
            throw notFound('No such file');
          });
          return stream;
        },
      };
    },
    async pin(name) {
      if (isStoredName(name)) await fs.promises.writeFile(path.join(pins, name), '');
    },
    async removeUnpinned(name) {
      if (!isStoredName(name) || fs.existsSync(path.join(pins, name)) || !fs.existsSync(where(name))) return false;
      await fs.promises.rm(where(name), { force: true });
      return true;
    },
    async expireGenerated(before) {
      let removed = 0;
      for (const name of await fs.promises.readdir(marks)) {
        const marked = await markTime(name);
        if (!isStoredName(name) || marked === undefined || marked >= before) continue;
        if (fs.existsSync(path.join(pins, name))) await fs.promises.rm(markOf(name), { force: true });
        else if (await expire(name, before)) removed++;
      }
      return removed;
    },
    async evictGenerated(bytes) {
      const candidates: EvictionCandidate[] = [];
      for (const name of await fs.promises.readdir(marks)) {
        if (!isStoredName(name) || fs.existsSync(path.join(pins, name))) continue;
        const [at, stat] = await Promise.all([markTime(name), fs.promises.stat(where(name)).catch(() => undefined)]);
        if (at !== undefined && stat) candidates.push({ name, at, size: stat.size });
      }
      // a mark dated after the listing (produced again) keeps its file
      return evictOldest(candidates, bytes, (file) => expire(file.name, file.at + 1));
    },
    async measure() {
      const [pinned, generated] = await Promise.all([fs.promises.readdir(pins), fs.promises.readdir(marks)]);
      const files = (await filesUnder(root)).map((file) => [path.basename(file.path), file.size] as const);
      return tallyClasses(files, new Set(pinned), new Set(generated));
    },
    async close() {
      // nothing held open between calls; what is left in the temp directory now is abandoned
      await temp.remove();
    },
  };
}

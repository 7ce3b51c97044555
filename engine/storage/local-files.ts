import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { notFound } from '../errors.js';
import { describeBytes, describeFile, isStoredName, type FileStore } from './files.js';

/**
 * The default backend: files on local disk under DATA_DIR/files/<first two hex
 * digits>/<name>, pins as empty marker files in DATA_DIR/pinned-files, temp
 * files in DATA_DIR/tmp (same filesystem, so adopting one is a rename).
 */
export function createLocalFileStore(dataDir: string, publicBaseUrl: string): FileStore {
  const root = path.join(dataDir, 'files');
  const tempDir = path.join(dataDir, 'tmp');
  // pins live beside the store, not in it, so files/ holds exactly the hosted files
  const pins = path.join(dataDir, 'pinned-files');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(pins, { recursive: true });
  fs.mkdirSync(tempDir, { recursive: true });
  const where = (name: string) => path.join(root, name.slice(0, 2), name);

  return {
    tempDir,
    async put(data, { ext }) {
      const file = describeBytes(publicBaseUrl, data, ext);
      const target = where(file.name);
      if (!fs.existsSync(target)) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        // write-then-rename so a reader never sees a half-written file
        const temp = path.join(tempDir, `${file.sha256}.${process.pid}.${Date.now()}`);
        await fs.promises.writeFile(temp, data);
        await fs.promises.rename(temp, target);
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
    async close() {
      // nothing held open between calls
    },
  };
}

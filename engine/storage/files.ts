import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Hosted files, content-addressed: a file's name is the SHA-256 of its bytes plus
 * its extension, so identical outputs are stored once and URLs never change. Local
 * disk under DATA_DIR/files; served by the `/files/:name` route (file-route.ts).
 */
export interface StoredFile {
  id: string;
  name: string;
  url: string;
  size: number;
  sha256: string;
  contentType: string;
}

export interface FileStore {
  /** Store bytes; returns the permanent URL. */
  put(data: Buffer, options: { ext: string }): Promise<StoredFile>;
  /** Move an already-written temp file (whose hash the caller computed while streaming) into the store. */
  adopt(tempPath: string, options: { ext: string; sha256: string; size: number }): Promise<StoredFile>;
  /** Absolute path of a stored file by name, or undefined. */
  locate(name: string): string | undefined;
  /**
   * Mark a file permanent (an upload's URL must never break). Content addressing means
   * one file can be both an upload and, say, a downloader's expiring cache entry.
   */
  pin(name: string): Promise<void>;
  /** Delete a file that nobody pinned (expiring caches); true if it was deleted. */
  removeUnpinned(name: string): boolean;
  /** Directory for temp files on the same filesystem (so adopt is a rename). */
  tempDir: string;
}

const NAME = /^[a-f0-9]{64}\.[a-z0-9]{1,10}$/;

export function createFileStore(dataDir: string, publicBaseUrl: string): FileStore {
  const root = path.join(dataDir, 'files');
  const tempDir = path.join(dataDir, 'tmp');
  // pins live beside the store, not in it, so files/ holds exactly the hosted files
  const pins = path.join(dataDir, 'pinned-files');
  fs.mkdirSync(root, { recursive: true });
  fs.mkdirSync(pins, { recursive: true });
  fs.mkdirSync(tempDir, { recursive: true });
  const where = (name: string) => path.join(root, name.slice(0, 2), name);
  const describe = (sha256: string, ext: string, size: number): StoredFile => {
    const name = `${sha256}.${ext}`;
    return { id: sha256, name, url: `${publicBaseUrl}/files/${name}`, size, sha256, contentType: contentTypeOf(name) };
  };
  const safeExt = (ext: string) => (/^[a-z0-9]{1,10}$/.test(ext.toLowerCase()) ? ext.toLowerCase() : 'bin');

  return {
    tempDir,
    async put(data, { ext }) {
      const sha256 = crypto.createHash('sha256').update(data).digest('hex');
      const file = describe(sha256, safeExt(ext), data.length);
      const target = where(file.name);
      if (!fs.existsSync(target)) {
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        // write-then-rename so a reader never sees a half-written file
        const temp = path.join(tempDir, `${sha256}.${process.pid}.${Date.now()}`);
        await fs.promises.writeFile(temp, data);
        await fs.promises.rename(temp, target);
      }
      return file;
    },
    async adopt(tempPath, { ext, sha256, size }) {
      const file = describe(sha256, safeExt(ext), size);
      const target = where(file.name);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      if (fs.existsSync(target)) await fs.promises.rm(tempPath, { force: true });
      else await fs.promises.rename(tempPath, target);
      return file;
    },
    locate(name) {
      if (!NAME.test(name)) return undefined;
      const target = where(name);
      return fs.existsSync(target) ? target : undefined;
    },
    async pin(name) {
      if (NAME.test(name)) await fs.promises.writeFile(path.join(pins, name), '');
    },
    removeUnpinned(name) {
      if (!NAME.test(name) || fs.existsSync(path.join(pins, name)) || !fs.existsSync(where(name))) return false;
      fs.rmSync(where(name), { force: true });
      return true;
    },
  };
}

const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', avif: 'image/avif',
  svg: 'image/svg+xml', bmp: 'image/bmp', ico: 'image/x-icon', tif: 'image/tiff', tiff: 'image/tiff',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', opus: 'audio/opus', wav: 'audio/wav', flac: 'audio/flac', aac: 'audio/aac',
  mp4: 'video/mp4', webm: 'video/webm', mkv: 'video/x-matroska', mov: 'video/quicktime', avi: 'video/x-msvideo',
  pdf: 'application/pdf', zip: 'application/zip', gz: 'application/gzip', tar: 'application/x-tar', '7z': 'application/x-7z-compressed',
  json: 'application/json', txt: 'text/plain; charset=utf-8', csv: 'text/csv; charset=utf-8', md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8', htm: 'text/html; charset=utf-8', xml: 'application/xml', js: 'text/javascript', css: 'text/css',
  doc: 'application/msword', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  apk: 'application/vnd.android.package-archive',
};

export const contentTypeOf = (name: string): string => TYPES[path.extname(name).slice(1).toLowerCase()] ?? 'application/octet-stream';

/** Types a browser would execute on our origin: always served as sandboxed attachments. */
export const isActiveContent = (name: string): boolean => /\.(html?|svg|xml|js|mjs|xhtml|css)$/i.test(name);

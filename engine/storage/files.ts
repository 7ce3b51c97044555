import crypto from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Hosted files, content-addressed: a file's name is the SHA-256 of its bytes plus
 * its extension, so identical outputs are stored once and URLs never change. Two
 * backends (create-file-store.ts picks one): local disk under DATA_DIR/files
 * (local-files.ts) and S3-compatible object storage (s3-files.ts). Either way the
 * URL is `<PUBLIC_BASE_URL>/files/<name>`, served by file-route.ts, so switching
 * backends or CDNs never breaks a link handed out.
 */
export interface StoredFile {
  id: string;
  name: string;
  url: string;
  size: number;
  sha256: string;
  contentType: string;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored file found by name, not yet read. */
export interface OpenedFile {
  size: number;
  /** Where clients may fetch the bytes directly (public bucket or CDN), when one is configured. */
  publicUrl?: string;
  /** The bytes, or one range of them; rejects with not_found if the file went meanwhile. */
  read(range?: ByteRange): Promise<Readable>;
}

export interface FileStore {
  /** Store bytes; returns the permanent URL. */
  put(data: Buffer, options: { ext: string }): Promise<StoredFile>;
  /**
   * Take over an already-written temp file (whose hash the caller computed while
   * streaming): it ends up in the store and is gone from tempDir, even on failure.
   * Nothing partial is ever visible under the file's name.
   */
  adopt(tempPath: string, options: { ext: string; sha256: string; size: number }): Promise<StoredFile>;
  /** A stored file by name, or undefined (also for names that are not store names). */
  open(name: string): Promise<OpenedFile | undefined>;
  /**
   * Mark a file permanent (an upload's URL must never break). Content addressing means
   * one file can be both an upload and, say, a downloader's expiring cache entry.
   */
  pin(name: string): Promise<void>;
  /** Delete a file that nobody pinned (expiring caches); true if it was deleted. */
  removeUnpinned(name: string): Promise<boolean>;
  /** Release connections (engine shutdown). */
  close(): Promise<void>;
  /** Local directory for temp files (on the store's filesystem for the disk backend, so adopt is a rename). */
  tempDir: string;
}

const NAME = /^[a-f0-9]{64}\.[a-z0-9]{1,10}$/;

/** Only `<sha256>.<ext>` names reach a backend: nothing else can address a path or key. */
export const isStoredName = (name: string): boolean => NAME.test(name);

const safeExt = (ext: string): string => (/^[a-z0-9]{1,10}$/.test(ext.toLowerCase()) ? ext.toLowerCase() : 'bin');

export function describeFile(publicBaseUrl: string, sha256: string, ext: string, size: number): StoredFile {
  const name = `${sha256}.${safeExt(ext)}`;
  return { id: sha256, name, url: `${publicBaseUrl}/files/${name}`, size, sha256, contentType: contentTypeOf(name) };
}

export const describeBytes = (publicBaseUrl: string, data: Buffer, ext: string): StoredFile =>
  describeFile(publicBaseUrl, crypto.createHash('sha256').update(data).digest('hex'), ext, data.length);

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

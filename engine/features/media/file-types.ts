import path from 'node:path';
import { contentTypeOf } from '../../platform/storage/files.js';

/**
 * The MIME type of a file hosted elsewhere (a MediaFire or Google Drive file), from its
 * name's extension: the file store's table plus the archive and package types file hosts
 * carry that Manifold never stores itself. Unknown extensions are
 * `application/octet-stream`, as HTTP says for arbitrary bytes; no name, null.
 */
const HOSTED: Record<string, string> = {
  rar: 'application/vnd.rar',
  xapk: 'application/vnd.android.package-archive',
  apks: 'application/vnd.android.package-archive',
  exe: 'application/vnd.microsoft.portable-executable',
  msi: 'application/x-msi',
  iso: 'application/x-iso9660-image',
  dmg: 'application/x-apple-diskimage',
  bz2: 'application/x-bzip2',
  xz: 'application/x-xz',
  jar: 'application/java-archive',
  epub: 'application/epub+zip',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  ttf: 'font/ttf',
  otf: 'font/otf',
};

export function mimeTypeOf(name: string | null | undefined): string | null {
  if (!name) return null;
  const ext = path.extname(name).slice(1).toLowerCase();
  return HOSTED[ext] ?? contentTypeOf(name).split(';')[0]!.trim();
}

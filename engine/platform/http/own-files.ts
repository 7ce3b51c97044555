import type { Readable } from 'node:stream';
import { invalidParameter } from '../../core/errors.js';
import { contentTypeOf } from '../storage/files.js';
import type { StreamedBody, UserUrlRequest } from './requests.js';

/** What the store gives for one hosted file (storage/files.ts FileStore.open). */
export interface OwnFileStore {
  open(name: string): Promise<{ size: number; read(): Promise<Readable> } | undefined>;
}

/**
 * This server's own `/files/` links, read from the file store instead of over the network.
 * Bots chain calls (make a QR code, then read it; upload, then apply an effect to the
 * result), and the links they pass back are ours. Fetched over HTTP they would fail on
 * every local or LAN install (PUBLIC_BASE_URL on localhost or a private address is what
 * the SSRF guard refuses) and cost a round trip to ourselves everywhere else. Only names
 * the store itself accepts are read (it answers undefined for anything else, so no path
 * leaves it), and the caller's size limit holds as for any URL.
 *
 * Returns a reader answering undefined for any URL that is not one of our file links.
 */
export function ownFileReader(publicBaseUrl: string, store: OwnFileStore) {
  const prefix = new URL('files/', `${publicBaseUrl.replace(/\/+$/, '')}/`);
  const nameOf = (url: string): string | undefined => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.origin !== prefix.origin || !parsed.pathname.startsWith(prefix.pathname)) return undefined;
    const rest = parsed.pathname.slice(prefix.pathname.length);
    if (!rest || rest.includes('/')) return undefined;
    try {
      return decodeURIComponent(rest);
    } catch {
      return undefined;
    }
  };
  return async (url: string, request: UserUrlRequest): Promise<StreamedBody | undefined> => {
    const name = nameOf(url);
    if (name === undefined) return undefined;
    request.signal?.throwIfAborted();
    const param = request.param ?? 'url';
    const file = await store.open(name);
    if (!file) throw invalidParameter(param, 'no such file on this server (generated files expire after GENERATED_FILES_TTL; uploads stay)');
    if (file.size > request.maxBytes) throw invalidParameter(param, `file too large (limit ${request.maxBytes} bytes)`);
    const contentType = contentTypeOf(name);
    return { body: await file.read(), contentType, contentLength: file.size, headers: { 'content-type': contentType }, finalUrl: url };
  };
}

import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';
import { notFound } from '../../core/errors.js';
import { contentTypeOf, describeBytes, describeFile, evictOldest, isActiveContent, isStoredName, tallyClasses, type FileStore } from './files.js';
import { openTempArea } from './temp-area.js';

/**
 * Hosted files in an S3-compatible bucket (AWS SDK v3): objects at
 * `<prefix>files/<name>`, pins as empty objects at `<prefix>pins/<name>` and
 * generated marks at `<prefix>generated/<name>`, dated by their LastModified (plain
 * objects rather than object tags or lifecycle rules, which several S3-compatible
 * services lack, and which could not spare a pinned file).
 * Temp files stay on local disk under DATA_DIR/tmp; adopting one streams it up
 * as a multipart upload, which becomes visible under its key only once complete.
 * The credentials need s3:ListBucket besides Get/Put/DeleteObject: without it S3
 * answers a HEAD of a missing key 403 instead of 404, and every store would fail.
 */

/** Bytes per multipart part; an upload holds at most PART_SIZE × PARTS_IN_FLIGHT in memory, whatever the file's size. */
export const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

interface Sdk {
  s3: typeof import('@aws-sdk/client-s3');
  client: S3Client;
}

export function createS3FileStore(settings: S3Settings, env: Readonly<Record<string, string>>, dataDir: string, publicBaseUrl: string): FileStore {
  const temp = openTempArea(dataDir);
  const tempDir = temp.dir;
  const Bucket = settings.bucket;
  const fileKey = (name: string) => `${settings.prefix}files/${name}`;
  const pinKey = (name: string) => `${settings.prefix}pins/${name}`;
  const markKey = (name: string) => `${settings.prefix}generated/${name}`;
  let loaded: Promise<Sdk> | undefined;
  // the SDK is large: imported on first use, so boot (and every disk-backed instance) never pays for it
  const sdk = () => (loaded ??= loadSdk(settings, env));

  const head = async (Key: string) => {
    const { s3, client } = await sdk();
    return client.send(new s3.HeadObjectCommand({ Bucket, Key })).catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
  };
  /** Every object under `<prefix><folder>/` whose name is a store name: name → size and LastModified. */
  const list = async (folder: string) => {
    const { s3, client } = await sdk();
    const found = new Map<string, { size: number; modified: number }>();
    const Prefix = `${settings.prefix}${folder}/`;
    for await (const page of s3.paginateListObjectsV2({ client }, { Bucket, Prefix })) {
      for (const object of page.Contents ?? []) {
        const name = object.Key!.slice(Prefix.length);
        if (isStoredName(name)) found.set(name, { size: object.Size ?? 0, modified: object.LastModified?.getTime() ?? 0 });
      }
    }
    return found;
  };
  const remove = async (Key: string) => {
    const { s3, client } = await sdk();
    await client.send(new s3.DeleteObjectCommand({ Bucket, Key }));
  };
  // S3 dates objects to the whole second: a mark may be up to a second younger than it says
  const fresh = (modified: number, before: number) => modified + 1000 > before;
  /** Delete one generated file whose mark is older than `before`, unless pinned (then only the mark goes); true if the file was deleted. */
  const expireOne = async (name: string, before: number): Promise<boolean> => {
    let removed = false;
    if (!(await head(pinKey(name)))) {
      // S3 has no rename to move the file aside as on disk: the mark is read again just
      // before the delete, which leaves a window of one request for a put of the same bytes
      const marked = await head(markKey(name));
      if (marked?.LastModified && fresh(marked.LastModified.getTime(), before)) return false;
      if (await head(fileKey(name))) {
        await remove(fileKey(name));
        removed = true;
      }
    }
    await remove(markKey(name));
    return removed;
  };
  const objectHeaders = (name: string) => ({
    ContentType: contentTypeOf(name),
    CacheControl: 'public, max-age=31536000, immutable',
    // a public bucket serves objects itself: active content is a download there too
    ...(isActiveContent(name) ? { ContentDisposition: `attachment; filename="${name}"` } : {}),
  });

  return {
    tempDir,
    temp,
    async put(data, { ext }) {
      const file = describeBytes(publicBaseUrl, data, ext);
      const Key = fileKey(file.name);
      const { s3, client } = await sdk();
      // marked first, dated now: a janitor pass that saw an older mark checks it again before deleting
      await client.send(new s3.PutObjectCommand({ Bucket, Key: markKey(file.name), Body: '', ContentLength: 0 }));
      if (!(await head(Key))) await client.send(new s3.PutObjectCommand({ Bucket, Key, Body: data, ...objectHeaders(file.name) }));
      return file;
    },
    async adopt(tempPath, { ext, sha256, size }) {
      const file = describeFile(publicBaseUrl, sha256, ext, size);
      const Key = fileKey(file.name);
      try {
        if (!(await head(Key))) {
          const [{ client }, { Upload }] = await Promise.all([sdk(), import('@aws-sdk/lib-storage')]);
          const params = { Bucket, Key, Body: fs.createReadStream(tempPath), ...objectHeaders(file.name) };
          // on failure lib-storage aborts the multipart upload, so no part outlives it
          await new Upload({ client, params, partSize: PART_SIZE, queueSize: PARTS_IN_FLIGHT }).done();
        }
      } finally {
        await fs.promises.rm(tempPath, { force: true });
      }
      return file;
    },
    async open(name) {
      if (!isStoredName(name)) return undefined;
      const Key = fileKey(name);
      const found = await head(Key);
      if (!found) return undefined;
      return {
        size: found.ContentLength ?? 0,
        publicUrl: settings.publicUrl && `${settings.publicUrl}/${Key.split('/').map(encodeURIComponent).join('/')}`,
        async read(range) {
          const { s3, client } = await sdk();
          const Range = range && `bytes=${range.start}-${range.end}`;
          const got = await client.send(new s3.GetObjectCommand({ Bucket, Key, Range })).catch((error: unknown) => {
            throw isMissing(error) ? notFound('No such file') : error;
          });
          return got.Body as Readable;
        },
      };
    },
    async pin(name) {
      if (!isStoredName(name)) return;
      const { s3, client } = await sdk();
      await client.send(new s3.PutObjectCommand({ Bucket, Key: pinKey(name), Body: '', ContentLength: 0 }));
    },
    async removeUnpinned(name) {
      if (!isStoredName(name) || (await head(pinKey(name))) || !(await head(fileKey(name)))) return false;
      const { s3, client } = await sdk();
      await client.send(new s3.DeleteObjectCommand({ Bucket, Key: fileKey(name) }));
      return true;
    },
    async expireGenerated(before) {
      let removed = 0;
      for (const [name, mark] of await list('generated')) {
        if (fresh(mark.modified, before)) continue;
        if (await expireOne(name, before)) removed++;
      }
      return removed;
    },
    async evictGenerated(bytes) {
      const [marks, files, pins] = await Promise.all([list('generated'), list('files'), list('pins')]);
      const candidates = [...marks]
        .filter(([name]) => !pins.has(name) && files.has(name))
        .map(([name, mark]) => ({ name, at: mark.modified, size: files.get(name)!.size }));
      // fresh() allows a second of S3's date rounding: a mark dated after the listing keeps its file
      return evictOldest(candidates, bytes, (file) => expireOne(file.name, file.at + 1001));
    },
    async measure() {
      const [files, pinned, generated] = await Promise.all([list('files'), list('pins'), list('generated')]);
      return tallyClasses(
        [...files].map(([name, { size }]) => [name, size] as const),
        new Set(pinned.keys()),
        new Set(generated.keys()),
      );
    },
    async ping(signal) {
      const { s3, client } = await sdk();
      await client.send(new s3.HeadBucketCommand({ Bucket }), { abortSignal: signal });
    },
    async close() {
      const opened = await loaded?.catch(() => undefined);
      opened?.client.destroy();
      await temp.remove();
    },
  };
}

async function loadSdk(settings: S3Settings, env: Readonly<Record<string, string>>): Promise<Sdk> {
  const s3 = await import('@aws-sdk/client-s3');
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = env;
  const client = new s3.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    // without keys in the configuration the SDK's own chain applies (shared config files, instance or task roles)
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken } : undefined,
    // The SDK adds CRC checksums to every upload by default; S3-compatible services that
    // predate them refuse the headers, or, for a streamed body (sent aws-chunked), store
    // the chunk framing as the object's bytes, as s3rver does. So: only where required.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return { s3, client };
}

/** A missing key: HEAD answers a bare 404 (`NotFound`), GET names `NoSuchKey`. A missing bucket fails the first write. */
const isMissing = (error: unknown): boolean => {
  const name = (error as { name?: string }).name;
  return name === 'NotFound' || name === 'NoSuchKey';
};

import { missingPackages } from '../../core/packages.js';
import type { Config } from '../config.js';
import { silentLogger, type Logger } from '../log.js';
import type { FileStore } from './files.js';
import { janitorSettings, StorageJanitor, type StorageReport } from './janitor.js';
import { createLocalFileStore } from './local-files.js';
import { createS3FileStore } from './s3-files.js';

/** A file store with its janitor running (expiring generated files, removing leftover temp files, measuring). */
export interface ManagedFileStore extends FileStore {
  janitor: StorageJanitor;
}

/** The configured backend for hosted files: S3-compatible storage when S3_BUCKET is set, local disk otherwise. */
export function createFileStore(config: Config, logger: Logger = silentLogger): ManagedFileStore {
  // the AWS SDK is the optional feature optional/s3: a host that set S3_BUCKET is told at boot, not at the first upload
  const sdk = config.s3 && missingPackages(['@aws-sdk/client-s3', '@aws-sdk/lib-storage']);
  if (sdk) throw new Error(`S3_BUCKET is set, but ${sdk}`);
  const backend = config.s3
    ? createS3FileStore(config.s3, config.env, config.dataDir, config.publicBaseUrl)
    : createLocalFileStore(config.dataDir, config.publicBaseUrl);
  const janitor = new StorageJanitor(backend, janitorSettings(config.env), logger);
  janitor.start();
  return {
    ...backend,
    janitor,
    async put(data, options) {
      const file = await backend.put(data, options);
      janitor.produced(file.size);
      return file;
    },
    async close() {
      await janitor.stop();
      await backend.close();
    },
  };
}

/** Disk use of each class of stored data for /health; null before the janitor's first measurement. */
export function diskUsage(files: FileStore): StorageReport | null {
  return ('janitor' in files ? (files as ManagedFileStore).janitor.report() : undefined) ?? null;
}

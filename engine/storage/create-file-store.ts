import type { Config } from '../config.js';
import type { FileStore } from './files.js';
import { createLocalFileStore } from './local-files.js';
import { createS3FileStore } from './s3-files.js';

/** The configured backend for hosted files: S3-compatible storage when S3_BUCKET is set, local disk otherwise. */
export function createFileStore(config: Config): FileStore {
  return config.s3
    ? createS3FileStore(config.s3, config.env, config.dataDir, config.publicBaseUrl)
    : createLocalFileStore(config.dataDir, config.publicBaseUrl);
}

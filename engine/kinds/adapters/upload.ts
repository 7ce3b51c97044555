import { invalidParameter, missingParameter } from '../../core/errors.js';
import { json, type AdapterKind } from '../../contract/call.js';

/**
 * File hosting. The engine's multipart parser has already streamed the part to a
 * temp file under DATA_DIR/tmp, enforcing UPLOAD_MAX_BYTES mid-stream (413, partial
 * file removed); here the file is hashed and sniffed, then moved (a rename) into the
 * content-addressed store, whose URL is permanent and survives restarts.
 */
interface UploadConfig {
  /** The multipart field holding the file. */
  field: string;
}

export const upload: AdapterKind<UploadConfig> = {
  kind: 'upload',
  cost: 'io',
  configSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['field'],
    properties: { field: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
  },
  async create(config, setup) {
    // file-type (MIME sniffing) loads with the first upload, not at boot
    const { inspectFile } = await import('../../features/uploads/inspect.js');
    return async (call) => {
      const file = call.files?.[config.field];
      if (!file) throw missingParameter(config.field);
      if (file.size === 0) throw invalidParameter(config.field, 'the file is empty');
      const facts = await inspectFile(file.path, file.name);
      const stored = await setup.files.adopt(file.path, { ext: facts.ext, sha256: facts.sha256, size: facts.size });
      await setup.files.pin(stored.name);
      return json({ url: stored.url, name: file.name, size: facts.size, mime: facts.mime, ext: facts.ext, sha256: facts.sha256 });
    };
  },
};

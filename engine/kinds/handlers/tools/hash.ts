import crypto from 'node:crypto';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Digests of `text` (UTF-8). The algorithm comes from the param or is fixed by the manifest. */
export default handler<Params['tools/hash']>(({ params, options }) => {
  // digests.yaml fixes the algorithm per endpoint; hash.yaml takes it as a param
  const algorithm: string = options.algorithm ?? ('algorithm' in params ? params.algorithm : 'sha256');
  const digest = crypto.createHash(algorithm).update(params.text, 'utf8').digest();
  return { algorithm, hex: digest.toString('hex'), base64: digest.toString('base64') };
});

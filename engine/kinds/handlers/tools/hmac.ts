import crypto from 'node:crypto';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/hmac']>(({ params }) => {
  const digest = crypto.createHmac(params.algorithm, params.key).update(params.text, 'utf8').digest();
  return { algorithm: params.algorithm, hex: digest.toString('hex'), base64: digest.toString('base64') };
});

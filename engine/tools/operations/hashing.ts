import crypto from 'node:crypto';
import type { Operation } from './types.js';

/** Digests of `text` (UTF-8). The algorithm comes from the param or is fixed by the manifest. */
export const hash: Operation = ({ params, options }) => {
  const algorithm = options.algorithm ?? params.algorithm;
  const digest = crypto.createHash(algorithm).update(params.text, 'utf8').digest();
  return { algorithm, hex: digest.toString('hex'), base64: digest.toString('base64') };
};

export const hmac: Operation = ({ params }) => {
  const digest = crypto.createHmac(params.algorithm, params.key).update(params.text, 'utf8').digest();
  return { algorithm: params.algorithm, hex: digest.toString('hex'), base64: digest.toString('base64') };
};

import crypto from 'node:crypto';

/**
 * SHA-256 of a UTF-8 string as lower-case hex (how key hashes are stored). The
 * one-shot crypto.hash (Node ≥ 20.12) costs a fifth of a createHash() object;
 * this runs on every keyed request.
 */
export const sha256Hex: (value: string) => string =
  typeof crypto.hash === 'function' ? (value) => crypto.hash('sha256', value) : (value) => crypto.createHash('sha256').update(value, 'utf8').digest('hex');

/** Raw bytes of a hex digest. */
export const digestOf = (hex: string): Buffer => Buffer.from(hex, 'hex');

/** SHA-256 of a UTF-8 string, as raw bytes. */
export const sha256 = (value: string): Buffer => digestOf(sha256Hex(value));

/**
 * Compare a presented secret with the expected one in constant time. Both are
 * hashed first so the comparison always runs over 32 bytes: timingSafeEqual
 * needs equal lengths, and comparing lengths directly would leak the secret's length.
 */
export function secretEquals(presented: string, expected: string): boolean {
  return digestEquals(sha256(presented), expected);
}

/** secretEquals() for a presented secret already hashed with sha256(). */
export function digestEquals(presentedDigest: Buffer, expected: string): boolean {
  return crypto.timingSafeEqual(presentedDigest, expectedDigest(expected));
}

/** Expected secrets are a handful of configured values (test key, admin token): hash each once. */
const expectedDigests = new Map<string, Buffer>();
function expectedDigest(expected: string): Buffer {
  let digest = expectedDigests.get(expected);
  if (!digest) {
    if (expectedDigests.size > 32) expectedDigests.clear();
    expectedDigests.set(expected, (digest = sha256(expected)));
  }
  return digest;
}

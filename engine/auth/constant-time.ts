import crypto from 'node:crypto';

/** SHA-256 of a UTF-8 string, as raw bytes. */
export const sha256 = (value: string): Buffer => crypto.createHash('sha256').update(value, 'utf8').digest();

/**
 * Compare a presented secret with the expected one in constant time. Both are
 * hashed first so the comparison always runs over 32 bytes: timingSafeEqual
 * needs equal lengths, and comparing lengths directly would leak the secret's length.
 */
export function secretEquals(presented: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(presented), expectedDigest(expected));
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

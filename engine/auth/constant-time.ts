import crypto from 'node:crypto';

/** SHA-256 of a UTF-8 string, as raw bytes. */
export const sha256 = (value: string): Buffer => crypto.createHash('sha256').update(value, 'utf8').digest();

/**
 * Compare a presented secret with the expected one in constant time. Both are
 * hashed first so the comparison always runs over 32 bytes: timingSafeEqual
 * needs equal lengths, and comparing lengths directly would leak the secret's length.
 */
export function secretEquals(presented: string, expected: string): boolean {
  return crypto.timingSafeEqual(sha256(presented), sha256(expected));
}

import crypto from 'node:crypto';

/**
 * What a personal API key looks like, decided here only: the key store makes keys with
 * newPersonalKey() and the log redaction (redact.ts) finds them with personalKeyPattern().
 * A key is `mf_` + 32 random bytes in base64url (43 characters), shown once and stored
 * only as a hash. The prefix lets a reader, a secret scanner and the redaction tell a
 * Manifold key from other text.
 */
export const KEY_PREFIX = 'mf_';

const SECRET_BYTES = 32;

export const newPersonalKey = (): string => KEY_PREFIX + crypto.randomBytes(SECRET_BYTES).toString('base64url');

/**
 * A run of text that is, or begins, a personal key: the prefix and at least 20 of its
 * characters, so a key cut short in a log line is still found while an ordinary `mf_x`
 * is not. A fresh global RegExp on each call (a shared one carries lastIndex between users).
 */
export const personalKeyPattern = (): RegExp => new RegExp(`${KEY_PREFIX}[A-Za-z0-9_-]{20,}`, 'g');

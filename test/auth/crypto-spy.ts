import crypto from 'node:crypto';

/**
 * A `node:crypto` stand-in for t.mockImport that records every timingSafeEqual
 * call, to prove secrets are compared in constant time (and over full digests).
 */
export function timingSafeEqualSpy() {
  const calls: [Buffer, Buffer][] = [];
  const timingSafeEqual = (a: Buffer, b: Buffer) => {
    calls.push([a, b]);
    return crypto.timingSafeEqual(a, b);
  };
  const mocked = { ...crypto, timingSafeEqual };
  return { calls, mocks: { 'node:crypto': { ...mocked, default: mocked } } };
}

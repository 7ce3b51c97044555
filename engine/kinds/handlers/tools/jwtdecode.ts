import crypto from 'node:crypto';
import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

function decodePart(part: string, which: string): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw invalidParameter('token', `its ${which} is not base64url-encoded JSON`);
  }
}

const HMAC: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };

/**
 * Decode a JWT's header and claims without trusting them. With `secret`, an HS*
 * signature is also checked (constant-time); other algorithms need a public key,
 * which this tool does not take, so `verified` stays null for them.
 */
export default handler<Params['tools/jwtdecode']>(({ params }) => {
  const parts = String(params.token).trim().split('.');
  if (parts.length !== 3) throw invalidParameter('token', 'must have three dot-separated parts');
  const header = decodePart(parts[0], 'header');
  const payload = decodePart(parts[1], 'payload');
  const now = Math.floor(Date.now() / 1000);
  const time = (v: unknown) => (typeof v === 'number' ? new Date(v * 1000).toISOString() : null);
  let verified: boolean | null = null;
  const algorithm = HMAC[String(header.alg)];
  if (params.secret && algorithm) {
    const expected = crypto.createHmac(algorithm, params.secret).update(`${parts[0]}.${parts[1]}`).digest();
    const given = Buffer.from(parts[2], 'base64url');
    verified = given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }
  return {
    header,
    payload,
    issuedAt: time(payload.iat),
    expiresAt: time(payload.exp),
    notBefore: time(payload.nbf),
    expired: typeof payload.exp === 'number' ? payload.exp < now : null,
    verified,
  };
});

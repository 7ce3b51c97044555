import crypto from 'node:crypto';
import { UAParser } from 'ua-parser-js';
import { invalidParameter } from '../../errors.js';
import { redactHeaders } from '../../auth/redact.js';
import type { Operation } from './types.js';

/** Web developer helpers: user agents, JWTs, URLs, number bases. */

export const userAgent: Operation = ({ params }) => {
  const { browser, engine, os, device, cpu } = new UAParser(params.ua).getResult();
  const isBot = /bot|crawler|spider|slurp|curl|wget|python-requests|httpclient/i.test(params.ua);
  return { ua: params.ua, browser: { ...browser }, engine: { ...engine }, os: { ...os }, device: { ...device }, cpu: { ...cpu }, isBot };
};

/** What the server sees of the caller: address, parsed user agent, headers (credentials blanked). */
export const requestInfo: Operation = ({ call }) => {
  const headers = call.client?.headers ?? {};
  const ua = String(headers['user-agent'] ?? '');
  const { browser, os, device } = new UAParser(ua).getResult();
  const ip = (call.client?.ip ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return {
    ip,
    ipVersion: ip.includes(':') ? 6 : 4,
    userAgent: ua,
    browser: { ...browser },
    os: { ...os },
    device: { ...device },
    acceptLanguage: headers['accept-language'] ?? null,
    headers: redactHeaders(headers),
  };
};

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
export const jwtDecode: Operation = ({ params }) => {
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
};

export const urlParse: Operation = ({ params }) => {
  let url: URL;
  try {
    url = new URL(params.url);
  } catch {
    throw invalidParameter('url', 'is not an absolute URL');
  }
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return {
    href: url.href,
    protocol: url.protocol.replace(/:$/, ''),
    username: url.username || null,
    host: url.host,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : null,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    origin: url.origin,
    query,
  };
};

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Convert an integer of any size between bases 2–36 (BigInt, so no precision loss). */
export const numberBase: Operation = ({ params }) => {
  const from: number = params.from;
  const raw = String(params.number).trim().toLowerCase().replace(/^(0x|0b|0o)/, '').replace(/_/g, '');
  const negative = raw.startsWith('-');
  const digits = negative ? raw.slice(1) : raw;
  if (!digits) throw invalidParameter('number', 'is empty');
  let value = 0n;
  for (const d of digits) {
    const n = DIGITS.indexOf(d);
    if (n < 0 || n >= from) throw invalidParameter('number', `"${d}" is not a base-${from} digit`);
    value = value * BigInt(from) + BigInt(n);
  }
  const signed = negative ? -value : value;
  return {
    input: params.number,
    from,
    to: params.to,
    result: signed.toString(params.to),
    decimal: signed.toString(10),
    hex: signed.toString(16),
    octal: signed.toString(8),
    binary: signed.toString(2),
  };
};

import { createRequire } from 'node:module';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import cardValidator from 'card-validator';
import { isValidBIC, electronicFormatIBAN, friendlyFormatIBAN, validateIBAN, ValidationErrorsIBAN, extractIBAN, isSEPACountry } from 'ibantools';
import { parse as parseDomain } from 'tldts';
import { validate as uuidValid, version as uuidVersion } from 'uuid';
import { isNoData, resolverFor } from './dns.js';
import type { Operation } from './types.js';

/**
 * Validators. A checker never fails on bad input: it answers 200 with `valid: false`
 * and the reason, since "is this valid?" is the question being asked.
 */

export const phone: Operation = async ({ params }) => {
  const number = parsePhoneNumberFromString(params.phone, { defaultCountry: params.country as CountryCode | undefined });
  if (!number) return { valid: false, input: params.phone, reason: 'not a phone number (add the +country code or pass country)' };
  // loaded on the first phone check only: the other checkers have no use for it
  const { phoneGeo } = await import('./phone-geo.js');
  return {
    valid: number.isValid(),
    possible: number.isPossible(),
    input: params.phone,
    country: number.country ?? null,
    countryCallingCode: number.countryCallingCode,
    type: number.getType() ?? null,
    e164: number.number,
    international: number.formatInternational(),
    national: number.formatNational(),
    uri: number.getURI(),
    ...(await phoneGeo(number)),
  };
};

// a CommonJS JSON list of ~120k domains; a Set makes each lookup O(1)
const disposable = new Set<string>(createRequire(import.meta.url)('disposable-email-domains'));
const EMAIL = /^(?=.{1,254}$)(?=.{1,64}@)[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+)$/;

/** MX lookup with a short, bounded timeout. */
async function mxRecords(domain: string, env: Readonly<Record<string, string>>) {
  const resolver = resolverFor(env);
  try {
    const records = await resolver.resolveMx(domain);
    return { checked: true, found: records.length > 0, records: records.sort((a, b) => a.priority - b.priority) };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'ERROR';
    // NODATA/NOTFOUND are answers ("no MX"); anything else means we could not tell
    const answered = isNoData(code);
    return { checked: answered, found: answered ? false : null, records: [], error: answered ? undefined : code };
  }
}

export const email: Operation = async ({ params, setup }) => {
  const address = String(params.email).trim();
  const m = EMAIL.exec(address);
  const domain = m ? m[1].toLowerCase() : address.split('@').pop()?.toLowerCase() ?? '';
  const parent = domain.split('.').slice(-2).join('.');
  const isDisposable = disposable.has(domain) || disposable.has(parent);
  const result: Record<string, unknown> = { email: address, validSyntax: Boolean(m), domain: m ? domain : null, disposable: isDisposable };
  if (m && params.mx) result.mx = await mxRecords(domain, setup.config.env);
  result.valid = Boolean(m) && !isDisposable && (!params.mx || (result.mx as { found: boolean | null }).found !== false);
  return result;
};

export const url: Operation = ({ params }) => {
  let parsed: URL;
  try {
    parsed = new URL(params.url);
  } catch {
    return { valid: false, url: params.url, reason: 'not an absolute URL' };
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const host = parseDomain(parsed.hostname);
  const hostOk = host.isIp || parsed.hostname === 'localhost' || Boolean(host.isIcann && host.domain);
  return {
    valid: web && hostOk,
    url: parsed.href,
    protocol: parsed.protocol.replace(/:$/, ''),
    hostname: parsed.hostname,
    secure: parsed.protocol === 'https:',
    isIp: Boolean(host.isIp),
    publicSuffix: host.publicSuffix,
    reason: !web ? 'only http and https URLs are web URLs' : !hostOk ? 'the host has no known public suffix' : undefined,
  };
};

/** Luhn + brand. The number is never stored or logged; only its last four digits are echoed. */
export const card: Operation = ({ params }) => {
  const digits = String(params.number).replace(/[\s-]/g, '');
  const check = cardValidator.number(digits);
  return {
    valid: check.isValid,
    potentiallyValid: check.isPotentiallyValid,
    luhn: /^\d+$/.test(digits) && luhn(digits),
    brand: check.card?.niceType ?? null,
    type: check.card?.type ?? null,
    lengths: check.card?.lengths ?? [],
    cvvLength: check.card?.code.size ?? null,
    last4: digits.slice(-4),
  };
};

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export const iban: Operation = ({ params }) => {
  const electronic = electronicFormatIBAN(params.iban) ?? '';
  const check = validateIBAN(electronic);
  const parts = check.valid ? extractIBAN(electronic) : undefined;
  return {
    valid: check.valid,
    iban: electronic,
    formatted: check.valid ? friendlyFormatIBAN(electronic) : null,
    country: parts?.countryCode ?? null,
    bban: parts?.bban ?? null,
    sepa: parts?.countryCode ? isSEPACountry(parts.countryCode) : null,
    errors: check.errorCodes.map((code) => ValidationErrorsIBAN[code]),
  };
};

export const bic: Operation = ({ params }) => {
  const code = String(params.bic).toUpperCase().replace(/\s+/g, '');
  const valid = isValidBIC(code);
  return {
    valid,
    bic: code,
    bank: valid ? code.slice(0, 4) : null,
    country: valid ? code.slice(4, 6) : null,
    location: valid ? code.slice(6, 8) : null,
    branch: valid ? (code.slice(8) || 'XXX') : null,
  };
};

export const domain: Operation = ({ params }) => {
  const name = String(params.domain).trim().toLowerCase().replace(/\.$/, '');
  const info = parseDomain(name, { allowPrivateDomains: true });
  const syntax = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(name) || /^xn--/.test(name);
  return {
    valid: syntax && Boolean(info.domain) && !info.isIp,
    domain: info.domain,
    hostname: info.hostname,
    subdomain: info.subdomain || null,
    publicSuffix: info.publicSuffix,
    isIcann: info.isIcann,
    isPrivateSuffix: info.isPrivate,
    isIp: info.isIp,
  };
};

export const uuid: Operation = ({ params }) => {
  const value = String(params.uuid).trim();
  const valid = uuidValid(value);
  return { valid, uuid: value, version: valid ? uuidVersion(value) : null, nil: /^0{8}-(0{4}-){3}0{12}$/.test(value) };
};

export const json: Operation = ({ params }) => {
  try {
    const value = JSON.parse(params.json);
    return { valid: true, type: Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value };
  } catch (err) {
    return { valid: false, error: (err as Error).message };
  }
};

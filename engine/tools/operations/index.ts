import type { Operation } from './types.js';

/**
 * The closed table of operations a `transform` manifest may name. Each entry loads
 * its module on first use: the operations pull in dozens of libraries (minifiers,
 * parsers, QR, browsers) that would otherwise all load at boot, whether or not
 * their endpoints are ever called.
 */
export type OperationLoader = () => Promise<Operation>;

function from<M extends Record<K, Operation>, K extends string>(load: () => Promise<M>, name: K): OperationLoader {
  return () => load().then((module) => module[name]);
}

// one loader per module; Node keeps each module once, the loaders only defer the first load
const encoding = () => import('./encoding.js');
const hashing = () => import('./hashing.js');
const identifiers = () => import('./identifiers.js');
const cron = () => import('./cron.js');
const time = () => import('./time.js');
const colour = () => import('./colour.js');
const text = () => import('./text.js');
const fancy = () => import('./fancy.js');
const web = () => import('./web.js');
const network = () => import('./network.js');
const checkers = () => import('./checkers.js');
const passwordStrength = () => import('./password-strength.js');
const qr = () => import('./qr.js');
const obfuscate = () => import('./obfuscate.js');
const carbon = () => import('./carbon.js');
const htmlObfuscate = () => import('./html-obfuscate.js');
const screenshot = () => import('./screenshot.js');
const dns = () => import('./dns.js');
const whois = () => import('./whois.js');

export const OPERATIONS: Readonly<Record<string, OperationLoader>> = Object.freeze({
  'base64-encode': from(encoding, 'base64Encode'),
  'base64-decode': from(encoding, 'base64Decode'),
  'hex-encode': from(encoding, 'hexEncode'),
  'hex-decode': from(encoding, 'hexDecode'),
  'binary-encode': from(encoding, 'binaryEncode'),
  'binary-decode': from(encoding, 'binaryDecode'),
  'url-encode': from(encoding, 'urlEncode'),
  'url-decode': from(encoding, 'urlDecode'),
  'html-encode': from(encoding, 'htmlEncode'),
  'html-decode': from(encoding, 'htmlDecode'),
  'morse-encode': from(encoding, 'morseEncode'),
  'morse-decode': from(encoding, 'morseDecode'),
  hash: from(hashing, 'hash'),
  hmac: from(hashing, 'hmac'),
  uuid: from(identifiers, 'uuid'),
  ulid: from(identifiers, 'ulidId'),
  nanoid: from(identifiers, 'nanoidId'),
  password: from(identifiers, 'password'),
  'cron-explain': from(cron, 'cronExplain'),
  'cron-next': from(cron, 'cronNext'),
  timestamp: from(time, 'timestamp'),
  'timezone-convert': from(time, 'timezoneConvert'),
  'colour-convert': from(colour, 'colourConvert'),
  'colour-palette': from(colour, 'colourPalette'),
  'colour-contrast': from(colour, 'colourContrast'),
  lorem: from(text, 'loremIpsum'),
  'change-case': from(text, 'changeCaseOperation'),
  slugify: from(text, 'slugify'),
  fancy: from(fancy, 'fancyText'),
  'user-agent': from(web, 'userAgent'),
  'request-info': from(web, 'requestInfo'),
  'jwt-decode': from(web, 'jwtDecode'),
  'url-parse': from(web, 'urlParse'),
  'number-base': from(web, 'numberBase'),
  'ip-check': from(network, 'ipCheck'),
  subnet: from(network, 'subnet'),
  'check-phone': from(checkers, 'phone'),
  'check-email': from(checkers, 'email'),
  'check-url': from(checkers, 'url'),
  'check-card': from(checkers, 'card'),
  'check-iban': from(checkers, 'iban'),
  'check-bic': from(checkers, 'bic'),
  'check-domain': from(checkers, 'domain'),
  'check-uuid': from(checkers, 'uuid'),
  'check-json': from(checkers, 'json'),
  'password-strength': from(passwordStrength, 'passwordStrength'),
  'qr-make': from(qr, 'qrMake'),
  obfuscate: from(obfuscate, 'obfuscate'),
  carbon: from(carbon, 'carbon'),
  'html-obfuscate': from(htmlObfuscate, 'htmlObfuscate'),
  screenshot: from(screenshot, 'screenshot'),
  'dns-check': from(dns, 'dnsCheck'),
  whois: from(whois, 'whois'),
});

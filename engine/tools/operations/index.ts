import type { Operation } from './types.js';
import * as encoding from './encoding.js';
import * as hashing from './hashing.js';
import * as ids from './identifiers.js';
import * as json from './json.js';
import * as minify from './minify.js';
import * as markup from './markup.js';
import { regexTest } from './regex.js';
import * as cron from './cron.js';
import * as time from './time.js';
import * as colour from './colour.js';
import * as text from './text.js';
import { fancyText } from './fancy.js';
import * as web from './web.js';
import * as network from './network.js';
import * as checkers from './checkers.js';
import { passwordStrength } from './password-strength.js';
import * as qr from './qr.js';
import { obfuscate } from './obfuscate.js';
import { carbon } from './carbon.js';
import { htmlObfuscate } from './html-obfuscate.js';
import { screenshot } from './screenshot.js';
import { dnsCheck } from './dns.js';
import { whois } from './whois.js';

/** The closed table of operations a `transform` manifest may name. */
export const OPERATIONS: Readonly<Record<string, Operation>> = Object.freeze({
  'base64-encode': encoding.base64Encode,
  'base64-decode': encoding.base64Decode,
  'hex-encode': encoding.hexEncode,
  'hex-decode': encoding.hexDecode,
  'binary-encode': encoding.binaryEncode,
  'binary-decode': encoding.binaryDecode,
  'url-encode': encoding.urlEncode,
  'url-decode': encoding.urlDecode,
  'html-encode': encoding.htmlEncode,
  'html-decode': encoding.htmlDecode,
  'morse-encode': encoding.morseEncode,
  'morse-decode': encoding.morseDecode,
  hash: hashing.hash,
  hmac: hashing.hmac,
  uuid: ids.uuid,
  ulid: ids.ulidId,
  nanoid: ids.nanoidId,
  password: ids.password,
  'json-format': json.jsonFormat,
  'json-minify': json.jsonMinify,
  'json-to-yaml': json.jsonToYaml,
  'yaml-to-json': json.yamlToJson,
  'minify-js': minify.minifyJs,
  'minify-css': minify.minifyCss,
  'minify-html': minify.minifyHtml,
  beautify: minify.beautify,
  'markdown-to-html': markup.markdownToHtml,
  'sanitize-html': markup.sanitizeOperation,
  'html-to-text': markup.htmlToText,
  regex: regexTest,
  'cron-explain': cron.cronExplain,
  'cron-next': cron.cronNext,
  timestamp: time.timestamp,
  'timezone-convert': time.timezoneConvert,
  'colour-convert': colour.colourConvert,
  'colour-palette': colour.colourPalette,
  'colour-contrast': colour.colourContrast,
  lorem: text.loremIpsum,
  diff: text.textDiff,
  'change-case': text.changeCaseOperation,
  slugify: text.slugify,
  'word-count': text.wordCount,
  reverse: text.reverseText,
  fancy: fancyText,
  'user-agent': web.userAgent,
  'request-info': web.requestInfo,
  'jwt-decode': web.jwtDecode,
  'url-parse': web.urlParse,
  'number-base': web.numberBase,
  'ip-check': network.ipCheck,
  subnet: network.subnet,
  'check-phone': checkers.phone,
  'check-email': checkers.email,
  'check-url': checkers.url,
  'check-card': checkers.card,
  'check-iban': checkers.iban,
  'check-bic': checkers.bic,
  'check-domain': checkers.domain,
  'check-uuid': checkers.uuid,
  'check-json': checkers.json,
  'password-strength': passwordStrength,
  'qr-make': qr.qrMake,
  'qr-read': qr.qrRead,
  obfuscate,
  carbon,
  'html-obfuscate': htmlObfuscate,
  screenshot,
  'dns-check': dnsCheck,
  whois,
});

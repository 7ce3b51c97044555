import he from 'he';
import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Text encoders/decoders. All take `text` and answer the converted string as `result`. */

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

const BASE64URL = /^[A-Za-z0-9_\-\s]*$/;

export const base64Encode = handler<Params['tools/encoders#base64Encode']>(({ params, options }) =>
  Buffer.from(params.text, 'utf8').toString(options.urlSafe ? 'base64url' : 'base64'),
);

export const base64Decode = handler<Params['tools/encoders#base64Decode']>(({ params }) => {
  const text = String(params.text).trim();
  // Node's decoder silently skips junk; say so instead of answering garbage
  if (!BASE64.test(text) && !BASE64URL.test(text)) throw invalidParameter('text', 'is not base64');
  return Buffer.from(text, BASE64.test(text) ? 'base64' : 'base64url').toString('utf8');
});

export const hexEncode = handler<Params['tools/encoders#hexEncode']>(({ params }) => Buffer.from(params.text, 'utf8').toString('hex'));

export const hexDecode = handler<Params['tools/encoders#hexDecode']>(({ params }) => {
  const hex = String(params.text).replace(/\s+|^0x/g, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw invalidParameter('text', 'is not an even-length hex string');
  return Buffer.from(hex, 'hex').toString('utf8');
});

/** Each UTF-8 byte as 8 bits, space separated (what `ebinary` clients expect). */
export const binaryEncode = handler<Params['tools/encoders#binaryEncode']>(({ params }) =>
  [...Buffer.from(params.text, 'utf8')].map((b) => b.toString(2).padStart(8, '0')).join(' '),
);

export const binaryDecode = handler<Params['tools/encoders#binaryDecode']>(({ params }) => {
  const bits = String(params.text).replace(/\s+/g, '');
  if (!/^([01]{8})*$/.test(bits) || bits.length === 0) throw invalidParameter('text', 'must be groups of 8 binary digits');
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2))).toString('utf8');
});

export const urlEncode = handler<Params['tools/encoders#urlEncode']>(({ params }) => encodeURIComponent(params.text));

export const urlDecode = handler<Params['tools/encoders#urlDecode']>(({ params }) => {
  try {
    return decodeURIComponent(String(params.text).replace(/\+/g, ' '));
  } catch {
    throw invalidParameter('text', 'has a malformed percent-escape');
  }
});

export const htmlEncode = handler<Params['tools/encoders#htmlEncode']>(({ params }) => he.encode(params.text, { useNamedReferences: true }));

export const htmlDecode = handler<Params['tools/encoders#htmlDecode']>(({ params }) => he.decode(params.text));

const MORSE: Record<string, string> = {
  a: '.-',
  b: '-...',
  c: '-.-.',
  d: '-..',
  e: '.',
  f: '..-.',
  g: '--.',
  h: '....',
  i: '..',
  j: '.---',
  k: '-.-',
  l: '.-..',
  m: '--',
  n: '-.',
  o: '---',
  p: '.--.',
  q: '--.-',
  r: '.-.',
  s: '...',
  t: '-',
  u: '..-',
  v: '...-',
  w: '.--',
  x: '-..-',
  y: '-.--',
  z: '--..',
  '0': '-----',
  '1': '.----',
  '2': '..---',
  '3': '...--',
  '4': '....-',
  '5': '.....',
  '6': '-....',
  '7': '--...',
  '8': '---..',
  '9': '----.',
  '.': '.-.-.-',
  ',': '--..--',
  '?': '..--..',
  "'": '.----.',
  '!': '-.-.--',
  '/': '-..-.',
  '(': '-.--.',
  ')': '-.--.-',
  '&': '.-...',
  ':': '---...',
  ';': '-.-.-.',
  '=': '-...-',
  '+': '.-.-.',
  '-': '-....-',
  _: '..--.-',
  '"': '.-..-.',
  $: '...-..-',
  '@': '.--.-.',
};

const FROM_MORSE = new Map(Object.entries(MORSE).map(([char, code]) => [code, char]));

/** International Morse: letters separated by spaces, words by " / ". */
export const morseEncode = handler<Params['tools/encoders#morseEncode']>(({ params }) =>
  String(params.text)
    .toLowerCase()
    .trim()
    .split(/\s+/)
    .map((word) =>
      [...word]
        .map((c) => MORSE[c] ?? '')
        .filter(Boolean)
        .join(' '),
    )
    .filter(Boolean)
    .join(' / '),
);

export const morseDecode = handler<Params['tools/encoders#morseDecode']>(({ params }) =>
  String(params.text)
    .trim()
    .split(/\s*\/\s*/)
    .map((word) =>
      word
        .split(/\s+/)
        .map((code) => {
          const char = FROM_MORSE.get(code);
          if (char === undefined) throw invalidParameter('text', `unknown Morse code "${code}"`);
          return char;
        })
        .join(''),
    )
    .join(' '),
);

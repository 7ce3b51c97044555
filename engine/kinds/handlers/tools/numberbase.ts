import { invalidParameter } from '../../../core/errors.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Convert an integer of any size between bases 2–36 (BigInt, so no precision loss). */
export default handler<Params['tools/numberbase']>(({ params }) => {
  const from: number = params.from;
  const raw = String(params.number)
    .trim()
    .toLowerCase()
    .replace(/^(0x|0b|0o)/, '')
    .replace(/_/g, '');
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
});

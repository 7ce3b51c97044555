import cardValidator from 'card-validator';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** Luhn + brand. The number is never stored or logged; only its last four digits are echoed. */
export default handler<Params['checker/card']>(({ params }) => {
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
});

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

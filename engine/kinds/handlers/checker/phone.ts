import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * Validators. A checker never fails on bad input: it answers 200 with `valid: false`
 * and the reason, since "is this valid?" is the question being asked.
 */

export default handler<Params['checker/phone']>(async ({ params }) => {
  const number = parsePhoneNumberFromString(params.phone, { defaultCountry: params.country as CountryCode | undefined });
  if (!number) return { valid: false, input: params.phone, reason: 'not a phone number (add the +country code or pass country)' };
  // loaded on the first phone check only: the other checkers have no use for it
  const { phoneGeo } = await import('../../../features/tools/phone-geo.js');
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
});

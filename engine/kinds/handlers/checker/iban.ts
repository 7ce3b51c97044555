import { electronicFormatIBAN, friendlyFormatIBAN, validateIBAN, ValidationErrorsIBAN, extractIBAN, isSEPACountry } from 'ibantools';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/iban']>(({ params }) => {
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
});

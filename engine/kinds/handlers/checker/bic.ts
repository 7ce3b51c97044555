import { isValidBIC } from 'ibantools';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/bic']>(({ params }) => {
  const code = String(params.bic).toUpperCase().replace(/\s+/g, '');
  const valid = isValidBIC(code);
  return {
    valid,
    bic: code,
    bank: valid ? code.slice(0, 4) : null,
    country: valid ? code.slice(4, 6) : null,
    location: valid ? code.slice(6, 8) : null,
    branch: valid ? code.slice(8) || 'XXX' : null,
  };
});

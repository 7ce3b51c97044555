import { validate as uuidValid, version as uuidVersion } from 'uuid';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/uuid']>(({ params }) => {
  const value = String(params.uuid).trim();
  const valid = uuidValid(value);
  return { valid, uuid: value, version: valid ? uuidVersion(value) : null, nil: /^0{8}-(0{4}-){3}0{12}$/.test(value) };
});

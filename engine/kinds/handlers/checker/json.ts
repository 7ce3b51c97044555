import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['checker/json']>(({ params }) => {
  try {
    const value = JSON.parse(params.json);
    return { valid: true, type: Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value };
  } catch (err) {
    return { valid: false, error: (err as Error).message };
  }
});

import { customAlphabet, nanoid } from 'nanoid';
import { batch } from '../../../features/tools/identifiers.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/nanoid']>(({ params }) => {
  const make = params.alphabet ? customAlphabet(params.alphabet, params.size) : () => nanoid(params.size);
  return batch(params.count, make);
});

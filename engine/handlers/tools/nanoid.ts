import { customAlphabet, nanoid } from 'nanoid';
import { batch } from '../../tools/identifiers.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/nanoid']>(({ params }) => {
  const make = params.alphabet ? customAlphabet(params.alphabet, params.size) : () => nanoid(params.size);
  return batch(params.count, make);
});

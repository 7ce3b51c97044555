import { ulid } from 'ulid';
import { batch } from '../../tools/identifiers.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/ulid']>(({ params }) => batch(params.count, () => ulid()));

import { ulid } from 'ulid';
import { batch } from '../../../features/tools/identifiers.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/ulid']>(({ params }) => batch(params.count, () => ulid()));

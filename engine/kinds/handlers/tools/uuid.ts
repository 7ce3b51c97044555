import { v1, v4, v7 } from 'uuid';
import { batch } from '../../../features/tools/identifiers.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

const UUIDS: Record<string, () => string> = { '1': v1, '4': v4, '7': v7 };

export default handler<Params['tools/uuid']>(({ params }) => batch(params.count, UUIDS[String(params.version)]));

import { describe, parseMoment, zone } from '../../../features/tools/time.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/timestamp']>(({ params }) => describe(parseMoment(params.time, zone(params.timezone, 'timezone'))));

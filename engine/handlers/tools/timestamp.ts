import { describe, parseMoment, zone } from '../../tools/time.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/timestamp']>(({ params }) => describe(parseMoment(params.time, zone(params.timezone, 'timezone'))));

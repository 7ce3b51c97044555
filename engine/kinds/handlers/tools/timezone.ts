import { describe, parseMoment, zone } from '../../../features/tools/time.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/** A wall-clock time in one zone, shown in another. */
export default handler<Params['tools/timezone']>(({ params }) => {
  const from = parseMoment(params.time, zone(params.from, 'from'));
  const to = from.setZone(zone(params.to, 'to'));
  return { from: describe(from), to: describe(to) };
});

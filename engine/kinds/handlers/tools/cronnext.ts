import { invalidParameter } from '../../../core/errors.js';
import { zone } from '../../../features/tools/time.js';
import { schedule } from '../../../features/tools/cron.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/cronnext']>(({ params }) => {
  const job = schedule(params.expression, zone(params.timezone, 'timezone'));
  const from = params.from ? new Date(params.from) : new Date();
  if (Number.isNaN(from.getTime())) throw invalidParameter('from', 'is not a date');
  const runs = job.nextRuns(params.count, from).map((date) => date.toISOString());
  return { expression: params.expression, timezone: params.timezone, runs };
});

import cronstrue from 'cronstrue';
import { schedule } from '../../../features/tools/cron.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/cronexplain']>(({ params }) => {
  schedule(params.expression, 'UTC');
  return { expression: params.expression, description: cronstrue.toString(params.expression, { use24HourTimeFormat: true, verbose: params.verbose }) };
});

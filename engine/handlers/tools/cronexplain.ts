import cronstrue from 'cronstrue';
import { schedule } from '../../tools/cron.js';
import { handler } from '../types.js';
import type { Params } from '../params.generated.js';

export default handler<Params['tools/cronexplain']>(({ params }) => {
  schedule(params.expression, 'UTC');
  return { expression: params.expression, description: cronstrue.toString(params.expression, { use24HourTimeFormat: true, verbose: params.verbose }) };
});

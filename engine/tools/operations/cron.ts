import cronstrue from 'cronstrue';
import { Cron } from 'croner';
import { invalidParameter } from '../../errors.js';
import { zone } from './time.js';
import type { Operation } from './types.js';

/** Cron expressions (5 fields, or 6 with seconds): a plain-English reading and the next run times. */

function schedule(expression: string, timezone: string) {
  try {
    return new Cron(expression, { timezone, paused: true });
  } catch (err) {
    throw invalidParameter('expression', (err as Error).message);
  }
}

export const cronExplain: Operation = ({ params }) => {
  schedule(params.expression, 'UTC');
  return { expression: params.expression, description: cronstrue.toString(params.expression, { use24HourTimeFormat: true, verbose: params.verbose }) };
};

export const cronNext: Operation = ({ params }) => {
  const job = schedule(params.expression, zone(params.timezone, 'timezone'));
  const from = params.from ? new Date(params.from) : new Date();
  if (Number.isNaN(from.getTime())) throw invalidParameter('from', 'is not a date');
  const runs = job.nextRuns(params.count, from).map((date) => date.toISOString());
  return { expression: params.expression, timezone: params.timezone, runs };
};

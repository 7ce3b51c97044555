import { Cron } from 'croner';
import { invalidParameter } from '../../core/errors.js';

/** Cron expressions (5 fields, or 6 with seconds): a plain-English reading and the next run times. */

export function schedule(expression: string, timezone: string) {
  try {
    return new Cron(expression, { timezone, paused: true });
  } catch (err) {
    throw invalidParameter('expression', (err as Error).message);
  }
}

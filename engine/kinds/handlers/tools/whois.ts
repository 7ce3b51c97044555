import checkerWhois from '../checker/whois.js';
import { handler } from '../../../contract/handler.js';
import type { Params } from '../params.generated.js';

/**
 * /api/tools/whois: the checker's WHOIS lookup (../checker/whois.ts) plus the two fields
 * the genre's own bot reads besides it (atassa gifted/tools.js: `result.states` as a list,
 * `result.dnssec`): `states` is the EPP status list again, `dnssec` the record's `DNSSEC:`
 * line (`signedDelegation`, `unsigned`…), null when the registry does not say.
 */
export default handler<Params['tools/whois']>(async (input) => {
  const record = (await checkerWhois(input)) as { status: string[]; raw: string };
  const dnssec = /^\s*DNSSEC:\s*(.+?)\s*$/im.exec(record.raw)?.[1] ?? null;
  return { ...record, states: record.status, dnssec };
});

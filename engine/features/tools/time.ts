import { DateTime, IANAZone } from 'luxon';
import { invalidParameter } from '../../core/errors.js';

/** Timestamps and time zones (luxon over the IANA database built into Node's ICU). */

export function zone(name: string, param: string): string {
  if (!IANAZone.isValidZone(name)) throw invalidParameter(param, `"${name}" is not an IANA time zone (e.g. Europe/Paris)`);
  return name;
}

/** A Unix time (s or ms, told apart by size) or any ISO 8601 date; absent = now. */
export function parseMoment(value: string | undefined, zoneName: string): DateTime {
  if (value === undefined) return DateTime.now().setZone(zoneName);
  if (/^-?\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    const millis = Math.abs(n) >= 1e11 ? n : n * 1000;
    return DateTime.fromMillis(millis, { zone: zoneName });
  }
  const parsed = DateTime.fromISO(value, { zone: zoneName });
  if (!parsed.isValid) throw invalidParameter('time', 'must be a Unix timestamp or an ISO 8601 date');
  return parsed;
}

export const describe = (t: DateTime) => ({
  iso: t.toISO(),
  unix: Math.floor(t.toSeconds()),
  unixMs: t.toMillis(),
  utc: t.toUTC().toISO(),
  timezone: t.zoneName,
  offset: t.toFormat('ZZ'),
  human: t.toFormat('cccc, d LLLL yyyy HH:mm:ss ZZZZ'),
  relative: t.toRelative(),
});

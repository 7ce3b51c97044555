/**
 * UTC days, as the per-day counts name them (`2026-11-24`): usage per key and endpoint
 * (db/usage.ts) and daily quotas (limits/daily-quota.ts) both count by them and reset
 * at 00:00 UTC.
 */
export const DAY_MS = 86_400_000;

/** The UTC day of an epoch-ms time, `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The epoch ms of the next 00:00 UTC after `ms`. */
export const nextUtcMidnight = (ms: number): number => (Math.floor(ms / DAY_MS) + 1) * DAY_MS;

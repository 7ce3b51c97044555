/** How the console writes numbers and times: the host's locale, times in UTC as the API counts days. */

const numbers = new Intl.NumberFormat();

export const count = (n: number): string => numbers.format(n);

export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) ((value /= 1024), unit++);
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** `2026-11-28 14:03 UTC`; a dash for none. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** YYYY-MM-DD of a Date, in UTC. */
export const utcDay = (date: Date): string => date.toISOString().slice(0, 10);

/** The UTC day `days` before today. */
export const daysAgo = (days: number): string => utcDay(new Date(Date.now() - days * 86_400_000));

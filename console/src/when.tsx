import { time } from './format.js';

/**
 * A time in a table cell: `2026-11-28 14:03 UTC`, machine-readable for assistive tools,
 * breaking (when the column is narrow) only between the day and the hour.
 */
export function When({ iso, none = '—' }: { iso: string | null | undefined; none?: string }) {
  if (!iso) return <span class="muted">{none}</span>;
  const [day, ...rest] = time(iso).split(' ');
  return (
    <time dateTime={iso} class="when">
      <span>{day}</span> <span>{rest.join(' ')}</span>
    </time>
  );
}

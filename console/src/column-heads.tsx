import type { ComponentChildren } from 'preact';

/** A table's header row: one column header per entry, so a screen reader names each cell's column. */
export function ColumnHeads({ columns }: { columns: ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => (
          <th key={i} scope="col">
            {column}
          </th>
        ))}
      </tr>
    </thead>
  );
}

import type { ComponentChildren } from 'preact';

/** A wide table that scrolls sideways on a narrow screen, reachable by keyboard. */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** A column's heading; `num` aligns a column of numbers to the right. false: no such column here. */
export type Column = string | { label: ComponentChildren; num?: boolean } | false;

/** The heading of a column of buttons: named for screen readers, blank on screen. */
export const ACTIONS: Column = { label: <span class="visually-hidden">Actions</span> };

/** A table headed by `columns`, its rows (`children`) in a TableScroll named `label`. */
export function DataTable({
  label,
  columns,
  children,
}: {
  label: string;
  columns: Column[];
  children: ComponentChildren;
}) {
  return (
    <TableScroll label={label}>
      <table>
        <thead>
          <tr>
            {columns.map((column, i) =>
              typeof column === 'string' ? (
                <th key={i} scope="col">
                  {column}
                </th>
              ) : (
                column && (
                  <th key={i} scope="col" class={column.num ? 'num' : undefined}>
                    {column.label}
                  </th>
                )
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}

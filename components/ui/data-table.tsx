import type { ReactNode } from "react";

/** A column head: numbers align right (`num`); a hidden label is read by screen readers only. */
export interface Column {
  label: ReactNode;
  numeric?: boolean;
  hidden?: boolean;
}

/** `["Batch", "Status", ["Passages", "num"]]`-style shorthand: a string is a text column. */
export type ColumnSpec = string | Column;

const columnOf = (c: ColumnSpec): Column => (typeof c === "string" ? { label: c } : c);

/** Numeric column heads, in order. */
export const numeric = (...labels: string[]): Column[] => labels.map((label) => ({ label, numeric: true }));

/** The "Actions" column of row buttons, its head read by screen readers only. */
export const ACTIONS: Column = { label: "Actions", numeric: true, hidden: true };

/** A `table.data` with one head row; the rows are the children. It scrolls sideways in its own box, never the page. */
export function DataTable({
  columns,
  label,
  testId,
  caption,
  children,
}: {
  columns: ColumnSpec[];
  label?: string;
  testId?: string;
  caption?: ReactNode;
  children: ReactNode;
}) {
  // A scrolling region takes the focus, so keyboard users can scroll it (axe: scrollable-region-focusable).
  return (
    <div className="table-scroll" tabIndex={0}>
      <table className="data" aria-label={label} data-testid={testId}>
        {caption}
        <thead>
          <tr>
            {columns.map(columnOf).map((c, i) => (
              <th key={i} scope="col" className={c.numeric ? "num" : undefined}>
                {c.hidden ? <span className="visually-hidden">{c.label}</span> : c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A right-aligned number cell. */
export function Num({ children, title }: { children: ReactNode; title?: string }) {
  return (
    <td className="num" title={title}>
      {children}
    </td>
  );
}

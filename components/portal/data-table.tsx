import type { ReactNode } from "react";
import { ScrollRegion } from "@/components/ui/scroll-region";
import { DEFAULT_LOCALE, messagesFor } from "@/lib/i18n";

// Not from ./api (a client module): server components render tables too.
const text = messagesFor(DEFAULT_LOCALE).portal;

/** One column of a portal table: its header and how a row fills its cell. */
export type Column<Row> = {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers and amounts align right. */
  align?: "right";
  /** Dates and amounts never wrap. */
  nowrap?: boolean;
  /** Extra classes for a row's cell (a colour for negative amounts, say). */
  cellClassName?: (row: Row) => string;
};

/**
 * Every list of the portal (keys, ledger, sessions, deliveries, workflows):
 * the empty message when there is nothing, else a named, keyboard-scrollable
 * table (ScrollRegion) whose first row is column headers.
 */
export function DataTable<Row>({
  label,
  rows,
  rowKey,
  columns,
  empty,
  minWidth = "min-w-[36rem]",
}: {
  /** The table's name, read out for its scroll region. */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly Column<Row>[];
  empty: string;
  /** A Tailwind min-width class: wide tables scroll sideways on a phone. */
  minWidth?: string;
}) {
  if (rows.length === 0) return <p className="mt-2 text-slate-700">{empty}</p>;
  const cellClass = (column: Column<Row>, last: boolean) =>
    [last ? "py-2" : "py-2 pr-3", column.align === "right" ? "text-right" : "", column.nowrap ? "whitespace-nowrap" : ""].filter(Boolean).join(" ");
  return (
    <ScrollRegion label={text.common.table(label)}>
      <table className={`w-full ${minWidth} text-left text-sm`}>
        <thead>
          <tr className="border-b border-slate-300 text-slate-700">
            {columns.map((column, i) => (
              <th key={column.header} scope="col" className={`${cellClass(column, i === columns.length - 1)} font-semibold`}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className="border-b border-slate-200">
              {columns.map((column, i) => (
                <td key={column.header} className={`${cellClass(column, i === columns.length - 1)} ${column.cellClassName?.(row) ?? ""}`.trim()}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

import { cn } from '~/utils/cn';

/**
 * A column of an admin table: its heading, aligned right (figures, actions) or shown from the
 * `md` breakpoint up only (a detail a phone does without). A plain string is a plain column.
 */
export type AdminColumn = string | { label: string; align?: 'right'; wideOnly?: boolean };

/** What a table with no rows shows instead: a panel where the table would be, or a line. */
const EMPTY_CLASS = {
  panel: 'rounded-lg border border-border bg-card p-8 text-center text-muted-foreground',
  note: 'text-sm text-muted-foreground',
} as const;

function ColumnHead({ column }: { column: AdminColumn }) {
  const { label, align, wideOnly } = typeof column === 'string' ? { label: column } : column;
  return (
    <th
      scope="col"
      className={cn(
        wideOnly && 'hidden',
        'px-4 py-3',
        align === 'right' && 'text-right',
        'font-semibold',
        wideOnly && 'md:table-cell',
      )}
    >
      {label}
    </th>
  );
}

/** How a row is told apart: by its `id` when it has one, else as `rowKey` says. */
type RowKeyProps<T> = [T] extends [{ id: React.Key }]
  ? { rowKey?: (row: T) => React.Key }
  : { rowKey: (row: T) => React.Key };

const byId = (row: unknown) => (row as { id: React.Key }).id;

type AdminTableProps<T> = {
  caption: string;
  columns: readonly AdminColumn[];
  rows: readonly T[];
  empty: React.ReactNode;
  emptyStyle?: keyof typeof EMPTY_CLASS;
  heading?: string;
  testId?: string;
  rowTestId?: string;
  children: (row: T) => React.ReactNode;
} & RowKeyProps<T>;

/**
 * The back office's list table: a captioned table (the caption for assistive technology only)
 * with a heading row of `columns`, one row per item of `rows` (its cells from `children`: a
 * `<th scope="row">` naming the item first, then its `<td>`s; keyed by its `id` or `rowKey`),
 * or the `empty` text when there are none. With a `heading`, table and heading stand in a block
 * under an `<h2>`.
 */
export function AdminTable<T>(props: AdminTableProps<T>) {
  const { caption, columns, rows, empty, emptyStyle = 'panel', heading, testId, rowTestId } = props;
  // Checked at the call: a row without an `id` comes with its `rowKey`.
  const rowKey: (row: T) => React.Key = props.rowKey ?? byId;
  const table =
    rows.length === 0 ? (
      <p className={EMPTY_CLASS[emptyStyle]}>{empty}</p>
    ) : (
      <div className="overflow-x-auto rounded-lg border border-border bg-card">
        <table className="w-full text-left text-sm" data-testid={testId}>
          <caption className="sr-only">{caption}</caption>
          <thead className="border-b border-border bg-muted/50">
            <tr>
              {columns.map((column) => (
                <ColumnHead
                  key={typeof column === 'string' ? column : column.label}
                  column={column}
                />
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr
                key={rowKey(row)}
                className="border-b border-border last:border-0"
                data-testid={rowTestId}
              >
                {props.children(row)}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  if (!heading) return table;
  return (
    <div>
      <h2 className="mb-3 text-xl font-semibold">{heading}</h2>
      {table}
    </div>
  );
}

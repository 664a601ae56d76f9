// A table of records: columns that may hide on a phone's width or hold numbers, and a last
// column of row actions.
import type { ReactNode } from 'react';
import { t } from '../i18n/t';

export interface Column<Row> {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  /** Hidden on a phone's width. */
  optional?: boolean;
  numeric?: boolean;
}

export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  actions,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  actions?: (row: Row) => ReactNode;
}) {
  const cellClass = (column: Column<Row>) =>
    [column.optional ? 'col-optional' : '', column.numeric ? 'cell-number' : ''].filter(Boolean).join(' ') || undefined;
  return (
    <table className="ui-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.key} scope="col" className={cellClass(column)}>
              {column.header}
            </th>
          ))}
          {actions ? (
            <th scope="col" className="cell-number">
              <span className="visually-hidden">{t('admin.actions')}</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column) => (
              <td key={column.key} className={cellClass(column)}>
                {column.render(row)}
              </td>
            ))}
            {actions ? (
              <td>
                <div className="cell-actions">{actions(row)}</div>
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import type { ComponentChildren } from 'preact'
import { Pager } from './ui.tsx'

/**
 * A column of a table: its heading and what a row shows in it. `number` right-aligns the heading
 * and the cells (figures line up by their last digit); `class` adds to the cell's classes, `title`
 * gives the cell a hover text; `show: false` leaves the column out.
 */
export type Column<T> = {
  head: ComponentChildren
  cell: (row: T, index: number) => ComponentChildren
  number?: boolean
  class?: string
  title?: (row: T) => string
  show?: boolean
}

/** A row's own attributes: a class (a failed transaction, a closed position) or `data-` keys tests find it by. */
export type RowAttributes = { class?: string } & Record<`data-${string}`, string>

export type DataTableProps<T> = {
  rows: T[]
  columns: Array<Column<T>>
  /** What tells the rows apart, for Preact to keep each row's elements across a refresh. */
  rowKey: (row: T, index: number) => string | number
  row?: (row: T) => RowAttributes
  /** Said in place of the table when there are no rows; without it an empty table is drawn. */
  empty?: ComponentChildren
  /** The table is a page of a longer list: previous and next links under it. */
  pager?: { base: string; offset: number; limit: number }
  /** Tighter cells, for the exchange's wide tables. */
  dense?: boolean
  /** The id of the heading that names the table, for screen readers. */
  labelledBy?: string
}

const classes = (...names: Array<string | false | undefined>) => names.filter(Boolean).join(' ') || undefined

/**
 * The explorer's one table: in its own box that scrolls sideways on a narrow screen (the page
 * itself never does), heading row, one row a record, and the pager of a paged list.
 */
export function DataTable<T>({ rows, columns, rowKey, row, empty, pager, dense = false, labelledBy }: DataTableProps<T>) {
  const shown = columns.filter((column) => column.show !== false)
  const body =
    empty !== undefined && rows.length === 0 ? (
      <p class="muted">{empty}</p>
    ) : (
      <div class="scroll">
        <table class={dense ? 'dense' : undefined} aria-labelledby={labelledBy}>
          <thead>
            <tr>
              {shown.map((column, index) => (
                <th key={index} class={column.number ? 'number' : undefined}>
                  {column.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((record, at) => (
              <tr key={rowKey(record, at)} {...row?.(record)}>
                {shown.map((column, index) => (
                  <td key={index} class={classes(column.number && 'number', column.class)} title={column.title?.(record)}>
                    {column.cell(record, at)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )
  if (!pager) return body
  return (
    <>
      {body}
      <Pager base={pager.base} offset={pager.offset} limit={pager.limit} shown={rows.length} />
    </>
  )
}

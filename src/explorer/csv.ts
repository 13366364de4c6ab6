// CSV as a spreadsheet opens it safely (RFC 4180, with formula injection neutralised): a cell
// a spreadsheet would run as a formula (one starting with =, +, -, @, or a tab or carriage return
// that hides one) is written with a leading apostrophe, which makes it text; a cell holding a
// comma, a quote or a line break is quoted, its quotes doubled.

const FORMULA = /^[=+\-@\t\r]/
const QUOTE = /[",\r\n]/

/** One cell: null and undefined are empty. */
export function csvCell(value: string | number | bigint | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  if (FORMULA.test(text)) text = `'${text}`
  return QUOTE.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One line, ended by CRLF as RFC 4180 writes it. */
export function csvLine(cells: ReadonlyArray<string | number | bigint | boolean | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`
}

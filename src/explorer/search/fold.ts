// How a query is read, on the server and in the pages alike.

/** The longest query read: longer than any name, symbol, hash or address. */
export const QUERY_MAX = 100

/** How a key and a query are compared: trimmed, inner runs of space made one, lower case. */
export function foldKey(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase()
}

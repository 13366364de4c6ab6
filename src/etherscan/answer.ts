/**
 * Etherscan's answer: always HTTP 200 with `{status, message, result}`. Clients match on the
 * strings (`status "1"`, `message "OK"`; `status "0"`, `message "NOTOK"` for a refusal), never
 * on the HTTP status, so a refusal of the API is an answer, not an error.
 */
export type EtherscanAnswer = { status: '0' | '1'; message: string; result: unknown }

export const ok = (result: unknown): EtherscanAnswer => ({ status: '1', message: 'OK', result })

/** A refusal: `result` says why, in Etherscan's words where it has some. */
export const notOk = (result: unknown): EtherscanAnswer => ({ status: '0', message: 'NOTOK', result })

/** An empty list, with Etherscan's wording for it ("No transactions found", "No records found"). */
export const nothingFound = (message: string, result: unknown = []): EtherscanAnswer => ({ status: '0', message, result })

/**
 * The proxy module's answer: JSON-RPC's own shape, as Etherscan passes the node's through
 * (`{jsonrpc, id, result}`, or `error` with its code and message).
 */
export type ProxyAnswer = { jsonrpc: '2.0'; id: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** What an action answers: Etherscan's envelope, or the proxy's JSON-RPC shape. */
export type ApiAnswer = EtherscanAnswer | ProxyAnswer

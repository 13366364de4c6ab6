import { Elysia } from 'elysia'
import { formatEther, formatUnits } from 'viem'
import { InvalidInputError, NotFoundError } from '../../errors.ts'
import { parseAddress } from '../../eth/address.ts'
import { queryInteger } from '../../http/queryInteger.ts'
import { blockByTime, spoolHead, type BlockRange } from '../../spool/read.ts'
import { transactionRows, transferRows } from '../addressLists.ts'
import { csvLine } from '../csv.ts'
import type { Explorer } from '../explorer.ts'

/** The most rows one export writes (Blockscout's and Etherscan's bound alike): a longer history is exported a range at a time. */
export const EXPORT_MAX_ROWS = 10_000
/** Rows read per step of the stream. */
const STEP = 500

/** The lists an address's page exports, by the file's name. */
export const EXPORTS = ['transactions', 'token-transfers'] as const
type ExportList = (typeof EXPORTS)[number]

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** The unix second a `YYYY-MM-DD` day (UTC) starts at, or an error. */
function dayStart(name: string, text: string): number {
  const match = DAY.exec(text)
  const at = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN
  if (!match || Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== text) throw new InvalidInputError(`${name} must be a day as YYYY-MM-DD`)
  return at / 1000
}

/**
 * The blocks an export covers: `startblock` and `endblock` (both included), or the days `from`
 * and `to` (YYYY-MM-DD, UTC, both included), each end open when absent; never past the spool's
 * head as the export begins, so rows that arrive meanwhile cannot shift its pages.
 */
export async function exportRange(explorer: Explorer, query: Record<string, string | undefined>): Promise<BlockRange> {
  const head = (await spoolHead(explorer.db)) ?? -1
  const bound = (name: string) => {
    const raw = query[name]
    if (raw === undefined || raw === '') return null
    const value = queryInteger(raw)
    if (value === null || value < 0) throw new InvalidInputError(`${name} must be a block number`)
    return value
  }
  let first = bound('startblock') ?? 0
  let last = Math.min(bound('endblock') ?? head, head)
  if (query.from) first = Math.max(first, (await blockByTime(explorer.db, dayStart('from', query.from), 'after')) ?? head + 1)
  if (query.to) last = Math.min(last, (await blockByTime(explorer.db, dayStart('to', query.to) + 86_399, 'before')) ?? -1)
  return { first, last }
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString()

const HEADS: Record<ExportList, string[]> = {
  transactions: ['Transaction', 'Block', 'Time (UTC)', 'Unix time', 'Method', 'From', 'From label', 'To', 'To label', 'Contract created', 'Direction', 'Value (wei)', 'Value', 'Fee (wei)', 'Status'],
  'token-transfers': ['Transaction', 'Block', 'Time (UTC)', 'Unix time', 'Token', 'Symbol', 'Decimals', 'From', 'To', 'Direction', 'Amount (base units)', 'Amount'],
}

/** One step's lines of `list`: the rows the address's page shows, `STEP` at a time. */
async function lines(explorer: Explorer, list: ExportList, address: `0x${string}`, range: BlockRange, offset: number, limit: number): Promise<string[]> {
  const page = { offset, limit }
  if (list === 'transactions') {
    return (await transactionRows(explorer, address, range, page)).map((tx) =>
      csvLine([tx.hash, tx.blockNumber, iso(tx.timestamp), tx.timestamp, tx.method, tx.from, tx.fromLabel, tx.to, tx.toLabel, tx.created, tx.direction, tx.value, formatEther(BigInt(tx.value)), tx.fee, tx.success ? 'success' : 'failed']),
    )
  }
  return (await transferRows(explorer, address, true, range, page)).map((transfer) => {
    const { symbol, decimals } = transfer as { symbol?: string | null; decimals?: number | null }
    const value = (transfer as { value?: string }).value ?? '0'
    return csvLine([
      transfer.txHash,
      transfer.blockNumber,
      iso(transfer.timestamp),
      transfer.timestamp,
      transfer.token,
      symbol ?? null,
      decimals ?? null,
      transfer.from,
      transfer.to,
      transfer.direction,
      value,
      typeof decimals === 'number' ? formatUnits(BigInt(value), decimals) : null,
    ])
  })
}

/**
 * `/address/{address}/transactions.csv` and `/address/{address}/token-transfers.csv`: an
 * address's lists as CSV files, for the pages' download links (beside the pages, not under
 * `/api`, whose answers are JSON). The same rows as the page, newest first, in a block or day
 * range, at most EXPORT_MAX_ROWS, streamed a step at a time.
 */
export function exportRoutes(explorer: Explorer) {
  const app = new Elysia({ name: 'explorer-exports' })
  for (const list of EXPORTS) {
    app.get(`/address/:address/${list}.csv`, async ({ params, query }) => {
      const address = parseAddress(params.address)
      if (!address) throw new NotFoundError('not an address')
      const range = await exportRange(explorer, query)
      let offset = 0
      let headed = false
      const encoder = new TextEncoder()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (!headed) {
            headed = true
            controller.enqueue(encoder.encode(csvLine(HEADS[list])))
            return
          }
          const limit = Math.min(STEP, EXPORT_MAX_ROWS - offset)
          const step = range.first > range.last || limit <= 0 ? [] : await lines(explorer, list, address, range, offset, limit)
          offset += step.length
          if (step.length > 0) controller.enqueue(encoder.encode(step.join('')))
          if (step.length < limit || offset >= EXPORT_MAX_ROWS) controller.close()
        },
      })
      return new Response(body, {
        headers: {
          'content-type': 'text/csv;charset=utf-8',
          'content-disposition': `attachment; filename="${address}-${list}.csv"`,
        },
      })
    })
  }
  return app
}

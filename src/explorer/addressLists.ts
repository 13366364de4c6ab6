import type { Address } from 'viem'
import { checksum } from '../eth/address.ts'
import { blob, hex } from '../eth/bytes.ts'
import { addressTxIds, internalCallsOf, internalCallTxIds, spoolHead, txsByIds, txsInFull, txTrace, type BlockRange } from '../spool/read.ts'
import type { Explorer } from './explorer.ts'
import type { Page } from './paging.ts'
import { TOKEN_META_AGE_MS } from './probes.ts'
import { addressTransfers } from './read/transfers.ts'
import { tokenMetaOf, transferRow, txSummary } from './rows.ts'

// An address's lists as its page's tabs show them and its CSV export writes them: the same rows
// from the same reads, each list paged on its own from its own indexes (docs/explorer.md).

/** Which way a row went for the address whose list it is. */
export type Direction = 'in' | 'out' | 'self'

export function direction(address: string, from: string | null, to: string | null): Direction {
  const self = address.toLowerCase()
  const out = from?.toLowerCase() === self
  const into = to?.toLowerCase() === self
  return out && into ? 'self' : out ? 'out' : 'in'
}

/** Every block the spool holds, or none while it holds none. */
export const wholeChain = async (explorer: Explorer): Promise<BlockRange> => ({ first: 0, last: (await spoolHead(explorer.db)) ?? -1 })

/** A page of the transactions `address` sent, received or created a contract with, newest first, each with its direction. */
export async function transactionRows(explorer: Explorer, address: Address, range: BlockRange, page: Page) {
  const ids = await addressTxIds(explorer.db, blob(address), range, { ...page, newestFirst: true })
  const txs = await txsByIds(explorer.db, ids)
  const nameMethod = await explorer.known.namer(txs.map((tx) => tx.to))
  return txs.map((tx) => {
    const row = txSummary(tx, explorer.registry, nameMethod)
    // A contract's creation came in: its `to` is empty, what it made is the address.
    return { ...row, direction: direction(address, row.from, row.to ?? row.created) }
  })
}

/** A page of the ERC-20 (`fungible`) or NFT transfers from or to `address`, newest first, ERC-20s with their symbol and decimals. */
export async function transferRows(explorer: Explorer, address: Address, fungible: boolean, range: BlockRange, page: Page) {
  const { db, registry, probes } = explorer
  const transfers = await addressTransfers(db, blob(address), fungible, page, range)
  const unlisted = [...new Set(transfers.map((transfer) => checksum(transfer.token)))].filter((token) => !registry.token(token))
  const probed = fungible ? await probes.probe(unlisted, TOKEN_META_AGE_MS) : new Map()
  const meta = tokenMetaOf(registry, probed)
  return transfers.map((transfer) => {
    const row = transferRow(transfer, registry, fungible ? meta : undefined)
    return { ...row, direction: direction(address, row.from, row.to) }
  })
}

/**
 * The deepest an address's internal transactions are paged: each page reads the call trees of
 * the transactions before it, so the window is bounded, as Etherscan bounds its own.
 */
export const INTERNAL_WINDOW = 10_000

/**
 * A page of the internal transactions (the nested calls that moved ether, created or
 * self-destructed) `address` made or received, newest first: the spool's internal_calls index
 * gives the transactions, their stored call trees the calls.
 */
export async function internalRows(explorer: Explorer, address: Address, page: Page) {
  const { db } = explorer
  if (page.offset >= INTERNAL_WINDOW) return []
  const wanted = Math.min(page.offset + page.limit, INTERNAL_WINDOW)
  // Every transaction holds at least one of the address's calls: `wanted` transactions hold the page.
  const ids = await internalCallTxIds(db, blob(address), await wholeChain(explorer), wanted, true)
  const rows = []
  for (const tx of await txsInFull(db, ids)) {
    const trace = await txTrace(db, tx.id)
    if (!trace) continue
    const calls = internalCallsOf(trace, address).reverse()
    for (const { frame, traceId } of calls) {
      const creation = frame.type.startsWith('CREATE')
      const from = checksum(frame.from)
      const to = frame.to ? checksum(frame.to) : null
      rows.push({
        txHash: hex(tx.hash),
        blockNumber: tx.blockNumber,
        timestamp: tx.timestamp,
        traceId,
        type: frame.type.toLowerCase(),
        from,
        fromLabel: explorer.registry.labelName(from),
        to: creation ? null : to,
        toLabel: creation ? null : explorer.registry.labelName(to),
        created: creation ? to : null,
        value: BigInt(frame.value ?? '0x0').toString(),
        error: frame.error ?? null,
        direction: direction(address, from, to),
      })
      if (rows.length >= wanted) break
    }
    if (rows.length >= wanted) break
  }
  return rows.slice(page.offset, wanted)
}

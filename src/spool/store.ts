import { blockAsMiniBlock } from '../chain/miniBlocks.ts'
import { blob, hex } from '../eth/bytes.ts'
import { decimal, quantity } from '../eth/quantity.ts'
import { txId } from './codec.ts'
import { CREATION_COLUMNS, CREATION_CONFLICT, recordCreations } from './creations.ts'
import { getMeta, setMeta } from './meta.ts'
import type { Queries, SpoolTx, SpoolWriter } from './engine.ts'
import type { BlockBundle } from './fetchBlocks.ts'
import { internalParties } from './internalCalls.ts'
import { GAP_BELOW_SQL, HISTORY_GAPS_SQL, type HistoryGap } from './read/blocks.ts'
import { packTrace } from './traces.ts'

/** The last block stored in full, or -1 before the first one. */
export async function getCursor(db: Queries): Promise<number> {
  const value = await getMeta(db, 'cursor')
  return value === null ? -1 : Number(value)
}

/** The hash stored for a block, or null when the block is not stored. */
export async function storedHash(db: Queries, number: number): Promise<string | null> {
  const row = await db.get<{ hash: Uint8Array }>('SELECT hash FROM blocks WHERE number = ?', number)
  return row ? hex(row.hash) : null
}

/** The recorded holes, oldest first, on the writer's connection (the readers': read/blocks.ts historyGaps). */
export function storedGaps(db: Queries): Promise<HistoryGap[]> {
  return db.all<HistoryGap>(HISTORY_GAPS_SQL)
}

/** The recorded hole that holds block `number`, or null, on the writer's connection. */
export async function storedGapHolding(db: Queries, number: number): Promise<HistoryGap | null> {
  const gap = await db.get<HistoryGap>(GAP_BELOW_SQL, number)
  return gap && gap.to >= number ? gap : null
}

/** A value a row of the spool holds: an integer, a decimal or JSON text, bytes, or nothing. */
export type SpoolValue = number | string | Uint8Array | null

/**
 * The spool's tables a run of blocks writes, with their columns in the order `batchRows` gives
 * each row's values (both engines' inserts are made from these lists).
 */
export const BATCH_COLUMNS = {
  blocks: ['number', 'hash', 'parent_hash', 'timestamp', 'miner', 'gas_used', 'gas_limit', 'base_fee', 'size', 'tx_count'],
  minis: ['number', 'block_number', 'hash', 'timestamp_us', 'tx_count'],
  txs: [
    'id',
    'hash',
    'block_number',
    'tx_index',
    'from_addr',
    'to_addr',
    'created',
    'value',
    'nonce',
    'type',
    'gas',
    'gas_price',
    'max_fee',
    'max_priority_fee',
    'input',
    'status',
    'gas_used',
    'effective_gas_price',
    'log_count',
    'cumulative_gas_used',
  ],
  logs: ['tx_id', 'log_index', 'block_number', 'address', 'topic0', 'topic1', 'topic2', 'topic3', 'data'],
  traces: ['tx_id', 'trace'],
  internal_calls: ['address', 'tx_id'],
  contract_creations: CREATION_COLUMNS,
} as const

export type BatchTable = keyof typeof BATCH_COLUMNS

/** Where `batchRows` puts each row: a list of each table's rows, which the writer inserts. */
export type RowSink = Record<BatchTable, (...values: SpoolValue[]) => void>

/** How a table of a batch takes a row it holds already, the same on both engines: a replayed party is no new one; a creation read again takes the newer creator. */
export const BATCH_CONFLICTS: Partial<Record<BatchTable, string>> = { internal_calls: 'ON CONFLICT DO NOTHING', contract_creations: CREATION_CONFLICT }

/**
 * How a run of fetched blocks becomes the spool's rows, the one rule for both engines: each
 * row's values, in BATCH_COLUMNS's order, handed to `sink` table by table as the blocks are
 * walked. Gives the number of logs.
 */
export function batchRows(bundles: BlockBundle[], sink: RowSink): number {
  let logs = 0
  for (const { block, receipts, traces } of bundles) {
    const number = quantity(block.number)
    const timestamp = quantity(block.timestamp)
    sink.blocks(
      number,
      blob(block.hash),
      blob(block.parentHash),
      timestamp,
      block.miner ? blob(block.miner) : null,
      quantity(block.gasUsed),
      quantity(block.gasLimit),
      decimal(block.baseFeePerGas),
      block.size ? quantity(block.size) : null,
      block.transactions.length,
    )
    // No mini-blocks on this node: the block is its own mini-block (the chain layer's rule).
    const mini = blockAsMiniBlock({ number, hash: block.hash, timestamp, txCount: block.transactions.length })
    sink.minis(mini.number, mini.block, blob(mini.hash), mini.timestampUs, mini.txCount)
    // The gas the block had used up to and including each transaction, as its receipt says.
    let cumulativeGas = 0
    block.transactions.forEach((tx, index) => {
      const receipt = receipts[index]!
      const id = txId(number, index)
      cumulativeGas += quantity(receipt.gasUsed)
      sink.txs(
        id,
        blob(tx.hash),
        number,
        index,
        blob(tx.from),
        tx.to ? blob(tx.to) : null,
        receipt.contractAddress ? blob(receipt.contractAddress) : null,
        decimal(tx.value),
        quantity(tx.nonce),
        quantity(tx.type ?? '0x0'),
        quantity(tx.gas),
        decimal(tx.gasPrice),
        decimal(tx.maxFeePerGas),
        decimal(tx.maxPriorityFeePerGas),
        blob(tx.input),
        quantity(receipt.status),
        quantity(receipt.gasUsed),
        decimal(receipt.effectiveGasPrice),
        receipt.logs.length,
        cumulativeGas,
      )
      for (const log of receipt.logs) {
        const [topic0, topic1, topic2, topic3] = log.topics
        sink.logs(
          id,
          quantity(log.logIndex),
          number,
          blob(log.address),
          topic0 ? blob(topic0) : null,
          topic1 ? blob(topic1) : null,
          topic2 ? blob(topic2) : null,
          topic3 ? blob(topic3) : null,
          blob(log.data),
        )
        logs++
      }
      if (traces) {
        sink.traces(id, packTrace(traces[index]!, { from: tx.from, to: tx.to ?? null, value: tx.value, input: tx.input }))
        for (const party of internalParties(traces[index]!)) sink.internal_calls(blob(party), id)
      }
      recordCreations(sink.contract_creations, {
        txId: id,
        blockNumber: number,
        from: tx.from,
        created: receipt.contractAddress ?? null,
        status: quantity(receipt.status),
        trace: traces ? traces[index]! : null,
      })
    })
  }
  return logs
}

/**
 * Writes a run of consecutive blocks and moves the cursor to the last of them, in one
 * transaction: after a crash either all of the batch is there and the cursor says so, or none
 * of it is and the batch is fetched again. Nothing is skipped and nothing is written twice.
 * Gives the number of logs.
 */
export async function writeBatch(writer: SpoolWriter, bundles: BlockBundle[]): Promise<number> {
  const tables = Object.keys(BATCH_COLUMNS) as BatchTable[]
  const rows = Object.fromEntries(tables.map((table) => [table, [] as SpoolValue[][]])) as Record<BatchTable, SpoolValue[][]>
  const sink = Object.fromEntries(tables.map((table) => [table, (...values: SpoolValue[]) => void rows[table].push(values)])) as RowSink
  const logs = batchRows(bundles, sink)
  await writer.transaction(async (tx) => {
    for (const table of tables) tx.queueRows(`INSERT INTO ${table} (${BATCH_COLUMNS[table].join(', ')})`, rows[table], BATCH_CONFLICTS[table])
    await moveCursor(writer, tx, quantity(bundles.at(-1)!.block.number))
  })
  return logs
}

/** Inside `tx`: the cursor moved to `head`, the time of it, and the new head told to the other instances at commit. */
async function moveCursor(writer: SpoolWriter, tx: SpoolTx, head: number): Promise<void> {
  await setMeta(tx, 'cursor', String(head))
  await setMeta(tx, 'updated_at', String(Date.now()))
  await writer.announce(tx, head)
}

/**
 * What taking the chain back to `ancestor` deletes and trims, the one list for both engines:
 * every row above it, by transaction id or by block, the derived rows with theirs. Each
 * statement with its parameters (`?`).
 */
export function rollbackStatements(ancestor: number): Array<[string, SpoolValue[]]> {
  const firstOrphanTx = txId(ancestor + 1, 0)
  return [
    ['DELETE FROM logs WHERE tx_id >= ?', [firstOrphanTx]],
    ['DELETE FROM traces WHERE tx_id >= ?', [firstOrphanTx]],
    ['DELETE FROM internal_calls WHERE tx_id >= ?', [firstOrphanTx]],
    ['DELETE FROM contract_creations WHERE tx_id >= ?', [firstOrphanTx]],
    ['DELETE FROM txs WHERE id >= ?', [firstOrphanTx]],
    ['DELETE FROM minis WHERE block_number > ?', [ancestor]],
    ['DELETE FROM blocks WHERE number > ?', [ancestor]],
    ['DELETE FROM verified_contracts WHERE block_number > ?', [ancestor]],
    ['DELETE FROM verified_proxies WHERE block_number > ?', [ancestor]],
    ['DELETE FROM history_gaps WHERE from_block > ?', [ancestor]],
    ['UPDATE history_gaps SET to_block = ? WHERE to_block > ?', [ancestor, ancestor]],
  ]
}

/**
 * Deletes every row above `ancestor` and moves the cursor back to it, in one transaction with
 * `alsoInside` (the derived streams rolling back their own rows).
 */
export async function rollbackTo(writer: SpoolWriter, ancestor: number, alsoInside: (tx: SpoolTx) => Promise<void> = async () => {}): Promise<void> {
  await writer.transaction(async (tx) => {
    for (const [sql, parameters] of rollbackStatements(ancestor)) await tx.run(sql, ...parameters)
    await alsoInside(tx)
    await moveCursor(writer, tx, ancestor)
  })
}

/** A hole that starts where the last one ended makes it longer (`?`: the new end, the block before the new start). */
export const EXTEND_GAP_SQL = 'UPDATE history_gaps SET to_block = ? WHERE to_block = ?'
/** Else a hole of its own (`?`: its first block, its last, when it was recorded). */
export const NEW_GAP_SQL = 'INSERT INTO history_gaps (from_block, to_block, recorded_at) VALUES (?, ?, ?)'

/**
 * Records blocks `from` to `to` as a hole the node had lost before the spool copied them, and
 * moves the cursor past it, in one transaction. A hole that starts where the last one ended
 * makes it longer.
 */
export async function recordGap(writer: SpoolWriter, from: number, to: number): Promise<void> {
  await writer.transaction(async (tx) => {
    const extended = await tx.run(EXTEND_GAP_SQL, to, from - 1)
    if (extended === 0) await tx.run(NEW_GAP_SQL, from, to, Date.now())
    await moveCursor(writer, tx, to)
  })
}

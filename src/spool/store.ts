import type { Database } from 'bun:sqlite'
import { blockAsMiniBlock } from '../chain/miniBlocks.ts'
import { blob, hex } from '../eth/bytes.ts'
import { decimal, quantity } from '../eth/quantity.ts'
import { txId } from './codec.ts'
import { prepareCreations, recordCreations } from './creations.ts'
import { getMeta, setMeta } from './db.ts'
import type { BlockBundle } from './fetchBlocks.ts'
import { internalParties } from './internalCalls.ts'
import { packTrace } from './traces.ts'

/** The last block stored in full, or -1 before the first one. */
export function getCursor(db: Database): number {
  const value = getMeta(db, 'cursor')
  return value === null ? -1 : Number(value)
}

/** The hash stored for a block, or null when the block is not stored. */
export function storedHash(db: Database, number: number): string | null {
  const row = db.query<{ hash: Uint8Array }, [number]>('SELECT hash FROM blocks WHERE number = ?').get(number)
  return row ? hex(row.hash) : null
}

export type Statements = ReturnType<typeof prepare>

/** Statements prepared once per connection: the bulk insert path is hot. */
export function prepare(db: Database) {
  return {
    block: db.prepare(
      `INSERT INTO blocks (number, hash, parent_hash, timestamp, miner, gas_used, gas_limit, base_fee, size, tx_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    mini: db.prepare('INSERT INTO minis (number, block_number, hash, timestamp_us, tx_count) VALUES (?, ?, ?, ?, ?)'),
    tx: db.prepare(
      `INSERT INTO txs (id, hash, block_number, tx_index, from_addr, to_addr, created, value, nonce, type, gas, gas_price,
         max_fee, max_priority_fee, input, status, gas_used, effective_gas_price, log_count, cumulative_gas_used)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    log: db.prepare(
      `INSERT INTO logs (tx_id, log_index, block_number, address, topic0, topic1, topic2, topic3, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    trace: db.prepare('INSERT INTO traces (tx_id, trace) VALUES (?, ?)'),
    internalCall: db.prepare('INSERT OR IGNORE INTO internal_calls (address, tx_id) VALUES (?, ?)'),
    creation: prepareCreations(db),
  }
}

/**
 * Writes a run of consecutive blocks and moves the cursor to the last of them, in one
 * transaction: after a crash either all of the batch is there and the cursor says so, or none
 * of it is and the batch is fetched again. Nothing is skipped and nothing is written twice.
 */
export function writeBatch(db: Database, statements: Statements, bundles: BlockBundle[]): number {
  let logs = 0
  db.transaction(() => {
    for (const { block, receipts, traces } of bundles) {
      const number = quantity(block.number)
      const timestamp = quantity(block.timestamp)
      statements.block.run(
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
      statements.mini.run(mini.number, mini.block, blob(mini.hash), mini.timestampUs, mini.txCount)
      // The gas the block had used up to and including each transaction, as its receipt says.
      let cumulativeGas = 0
      block.transactions.forEach((tx, index) => {
        const receipt = receipts[index]!
        const id = txId(number, index)
        cumulativeGas += quantity(receipt.gasUsed)
        statements.tx.run(
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
          statements.log.run(
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
          statements.trace.run(id, packTrace(traces[index]!, { from: tx.from, to: tx.to ?? null, value: tx.value, input: tx.input }))
          for (const party of internalParties(traces[index]!)) statements.internalCall.run(blob(party), id)
        }
        recordCreations(statements.creation, {
          txId: id,
          blockNumber: number,
          from: tx.from,
          created: receipt.contractAddress ?? null,
          status: quantity(receipt.status),
          trace: traces ? traces[index]! : null,
        })
      })
    }
    setMeta(db, 'cursor', String(quantity(bundles.at(-1)!.block.number)))
    setMeta(db, 'updated_at', String(Date.now()))
  }).immediate()
  return logs
}

/**
 * Deletes every row above `ancestor` and moves the cursor back to it, in one transaction with
 * `alsoInside` (the derived streams rolling back their own rows).
 */
export function rollbackTo(db: Database, ancestor: number, alsoInside: () => void = () => {}): void {
  const firstOrphanTx = txId(ancestor + 1, 0)
  db.transaction(() => {
    db.run('DELETE FROM logs WHERE tx_id >= ?', [firstOrphanTx])
    db.run('DELETE FROM traces WHERE tx_id >= ?', [firstOrphanTx])
    db.run('DELETE FROM internal_calls WHERE tx_id >= ?', [firstOrphanTx])
    db.run('DELETE FROM contract_creations WHERE tx_id >= ?', [firstOrphanTx])
    db.run('DELETE FROM txs WHERE id >= ?', [firstOrphanTx])
    db.run('DELETE FROM minis WHERE block_number > ?', [ancestor])
    db.run('DELETE FROM blocks WHERE number > ?', [ancestor])
    db.run('DELETE FROM verified_contracts WHERE block_number > ?', [ancestor])
    db.run('DELETE FROM verified_proxies WHERE block_number > ?', [ancestor])
    db.run('DELETE FROM history_gaps WHERE from_block > ?', [ancestor])
    db.run('UPDATE history_gaps SET to_block = ? WHERE to_block > ?', [ancestor, ancestor])
    alsoInside()
    setMeta(db, 'cursor', String(ancestor))
    setMeta(db, 'updated_at', String(Date.now()))
  }).immediate()
}

/**
 * Records blocks `from` to `to` as a hole the node had lost before the spool copied them, and
 * moves the cursor past it, in one transaction. A hole that starts where the last one ended
 * makes it longer.
 */
export function recordGap(db: Database, from: number, to: number): void {
  db.transaction(() => {
    const extended = db.run('UPDATE history_gaps SET to_block = ? WHERE to_block = ?', [to, from - 1])
    if (extended.changes === 0) db.run('INSERT INTO history_gaps (from_block, to_block, recorded_at) VALUES (?, ?, ?)', [from, to, Date.now()])
    setMeta(db, 'cursor', String(to))
    setMeta(db, 'updated_at', String(Date.now()))
  }).immediate()
}

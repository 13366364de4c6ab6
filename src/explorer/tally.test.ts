import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { txId } from '../spool/codec.ts'
import { openSpool } from '../spool/db.ts'
import { chartPoints } from './routes/overview.ts'
import { explorerMigrations } from './stream.ts'
import { ChainTally } from './tally.ts'

const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const FACTORY = 'cc'.repeat(20)
const PAIR = 'dd'.repeat(20)
const bytes = (hex: string) => Buffer.from(hex, 'hex')

function spool() {
  return openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-tally-')), 'spool.db'), explorerMigrations)
}

function block(db: ReturnType<typeof spool>, number: number, txCount: number, salt = 0) {
  db.run('INSERT INTO blocks (number, hash, parent_hash, timestamp, gas_used, gas_limit, tx_count) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    number,
    bytes(`${String(salt).padStart(2, '0')}${String(number).padStart(62, '0')}`),
    new Uint8Array(32),
    1000 + number * 2,
    21_000 * txCount,
    30_000_000,
    txCount,
  ])
}

function tx(db: ReturnType<typeof spool>, number: number, index: number, from: string, to: string | null, created: string | null = null) {
  db.run(
    `INSERT INTO txs (id, hash, block_number, tx_index, from_addr, to_addr, created, value, nonce, type, gas, input, status, gas_used, log_count)
     VALUES (?, ?, ?, ?, ?, ?, ?, '0', 0, 2, 21000, x'', 1, 21000, 0)`,
    [txId(number, index), bytes(`${String(number).padStart(32, '0')}${String(index).padStart(32, '0')}`), number, index, bytes(from), to ? bytes(to) : null, created ? bytes(created) : null],
  )
}

test('totals, per-account counts and creators, including a creation inside a call', () => {
  const db = spool()
  block(db, 0, 0)
  block(db, 1, 2)
  tx(db, 1, 0, A, B)
  tx(db, 1, 1, A, null, FACTORY)
  block(db, 2, 2)
  tx(db, 2, 0, B, FACTORY)
  tx(db, 2, 1, A, A)
  const trace = { type: 'CALL', from: `0x${B}`, to: `0x${FACTORY}`, input: '0x', calls: [{ type: 'CREATE2', from: `0x${FACTORY}`, to: `0x${PAIR}`, input: '0x', error: null, calls: [] }] }
  db.run('INSERT INTO traces (tx_id, trace) VALUES (?, ?)', [txId(2, 0), JSON.stringify(trace)])
  const tally = new ChainTally(db)
  expect(tally.catchUp()).toBe(true)
  expect({ blocks: tally.blocks, transactions: tally.transactions, gasUsed: tally.gasUsed, wallets: tally.wallets }).toEqual({ blocks: 3, transactions: 4, gasUsed: 84_000, wallets: 2 })
  expect(tally.accounts.get(A)).toEqual({ sent: 3, received: 1, self: 1 })
  expect(tally.accounts.get(B)).toEqual({ sent: 1, received: 1, self: 0 })
  expect(tally.accounts.get(FACTORY)).toEqual({ sent: 0, received: 2, self: 0 })
  expect(tally.creations.get(FACTORY)).toEqual({ creator: A, txId: txId(1, 1) })
  expect(tally.creations.get(PAIR)).toEqual({ creator: FACTORY, txId: txId(2, 0) })
  expect(tally.createdBy.get(FACTORY)).toEqual([PAIR])

  // Nothing new: nothing changes.
  const version = tally.version
  tally.catchUp()
  expect(tally.version).toBe(version)
})

test('a reorganisation under the last block counted starts the tally over', () => {
  const db = spool()
  block(db, 0, 0)
  block(db, 1, 1)
  tx(db, 1, 0, A, B)
  const tally = new ChainTally(db)
  tally.catchUp()
  expect(tally.transactions).toBe(1)
  // Block 1 is replaced by another with a transaction from B.
  db.run('DELETE FROM txs')
  db.run('DELETE FROM blocks WHERE number = 1')
  block(db, 1, 1, 7)
  tx(db, 1, 0, B, A)
  tally.catchUp()
  expect(tally.transactions).toBe(1)
  expect(tally.accounts.get(A)).toEqual({ sent: 0, received: 1, self: 0 })
  expect(tally.accounts.get(B)).toEqual({ sent: 1, received: 0, self: 0 })
})

test('charts prefer blocks with transactions and fall back to every block below four of them', () => {
  const db = spool()
  for (let number = 0; number < 10; number++) block(db, number, number === 3 || number === 6 ? 1 : 0)
  expect(chartPoints(db, 48).map((point) => point.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  expect(chartPoints(db, 4).map((point) => point.number)).toEqual([6, 7, 8, 9])
  block(db, 10, 2)
  block(db, 11, 0)
  block(db, 12, 1)
  expect(chartPoints(db, 48)).toEqual([
    { number: 3, timestamp: 1006, txCount: 1, gasUsed: 21_000 },
    { number: 6, timestamp: 1012, txCount: 1, gasUsed: 21_000 },
    { number: 10, timestamp: 1020, txCount: 2, gasUsed: 42_000 },
    { number: 12, timestamp: 1024, txCount: 1, gasUsed: 21_000 },
  ])
  // Four blocks with transactions exist: a small limit takes the newest of them, not every block.
  expect(chartPoints(db, 2).map((point) => point.number)).toEqual([10, 12])
  expect(chartPoints(db, 1).map((point) => point.number)).toEqual([12])
})

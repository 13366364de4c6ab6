import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { txId } from '../spool/codec.ts'
import { openSpool } from '../spool/db.ts'
import { prepare, rollbackTo, writeBatch } from '../spool/store.ts'
import type { CallFrame } from '../spool/traces.ts'
import { chartPoints } from './routes/overview.ts'
import { explorerMigrations } from './stream.ts'
import { ChainTally } from './tally.ts'

const A = 'aa'.repeat(20)
const B = 'bb'.repeat(20)
const FACTORY = 'cc'.repeat(20)
const PAIR = 'dd'.repeat(20)

function spool() {
  return openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-tally-')), 'spool.db'), explorerMigrations)
}

type Db = ReturnType<typeof spool>
/** A transaction: from, to (null for a creation), the contract it created, its call tree. */
type Tx = { from: string; to: string | null; created?: string; trace?: Partial<CallFrame> }

const address = (key: string | null): Hex | null => (key === null ? null : `0x${key}`)
const q = (value: number): Hex => `0x${value.toString(16)}`
const word = (digits: string): Hex => `0x${digits.padStart(64, '0')}`
const call = (tx: Tx): CallFrame => ({ type: 'CALL', from: `0x${tx.from}`, to: address(tx.to), value: '0x0', gas: null, gasUsed: null, input: '0x', output: null, error: null, calls: [], ...tx.trace })

/** Block `number` with `txs` (21,000 gas each), written through the spool's own write path; `salt` makes another block of that height. */
function block(db: Db, number: number, txs: Tx[] = [], salt = 0) {
  const txHash = (index: number) => word(`${String(number).padStart(32, '0')}${String(index).padStart(32, '0')}`)
  writeBatch(db, prepare(db), [
    {
      block: {
        number: q(number),
        hash: word(`${String(salt).padStart(2, '0')}${String(number).padStart(62, '0')}`),
        parentHash: word('0'),
        timestamp: q(1000 + number * 2),
        gasUsed: q(21_000 * txs.length),
        gasLimit: q(30_000_000),
        transactions: txs.map((tx, index) => ({ hash: txHash(index), from: `0x${tx.from}`, to: address(tx.to), value: '0x0', nonce: '0x0', type: '0x2', gas: q(21_000), input: '0x', transactionIndex: q(index) })),
      },
      receipts: txs.map((tx, index) => ({ transactionHash: txHash(index), transactionIndex: q(index), status: '0x1', gasUsed: q(21_000), contractAddress: tx.created ? `0x${tx.created}` : null, logs: [] })),
      traces: txs.map(call),
    },
  ])
}

/** `txCount` transactions from A to B. */
const transfers = (txCount: number): Tx[] => Array.from({ length: txCount }, () => ({ from: A, to: B }))

test('totals, per-account counts and creators, including a creation inside a call', () => {
  const db = spool()
  block(db, 0)
  block(db, 1, [
    { from: A, to: B },
    { from: A, to: null, created: FACTORY },
  ])
  const inner = call({ from: FACTORY, to: PAIR, trace: { type: 'CREATE2' } })
  block(db, 2, [
    { from: B, to: FACTORY, trace: { calls: [inner] } },
    { from: A, to: A },
  ])
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
  block(db, 0)
  block(db, 1, [{ from: A, to: B }])
  const tally = new ChainTally(db)
  tally.catchUp()
  expect(tally.transactions).toBe(1)
  // Block 1 is replaced by another with a transaction from B.
  rollbackTo(db, 0)
  block(db, 1, [{ from: B, to: A }], 7)
  tally.catchUp()
  expect(tally.transactions).toBe(1)
  expect(tally.accounts.get(A)).toEqual({ sent: 0, received: 1, self: 0 })
  expect(tally.accounts.get(B)).toEqual({ sent: 1, received: 0, self: 0 })
})

test('charts prefer blocks with transactions and fall back to every block below four of them', () => {
  const db = spool()
  for (let number = 0; number < 10; number++) block(db, number, transfers(number === 3 || number === 6 ? 1 : 0))
  expect(chartPoints(db, 48).map((point) => point.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  expect(chartPoints(db, 4).map((point) => point.number)).toEqual([6, 7, 8, 9])
  block(db, 10, transfers(2))
  block(db, 11)
  block(db, 12, transfers(1))
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

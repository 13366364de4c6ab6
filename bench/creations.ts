// bun run bench:creations [transactions] [share of factory calls, in percent] [share of deployments, in percent]
//
// How long the migration that adds the creations' index takes on a spool that already holds
// transactions and call trees. A spool of synthetic blocks (100 transactions each: calls with
// small call trees, calls to a factory whose tree holds a CREATE2 frame with a pair-sized init
// code, and deployments of 5 KB) is written through the spool's own write path, the index and
// its migration record are then removed (as a spool written before it stands), and the spool is
// opened again, which applies the migration. The rows it fills are checked against the ones the
// write path made.
import { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { openSpool, closeSpool } from '../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../src/spool/sqlite/engine.ts'
import type { BlockBundle } from '../src/spool/fetchBlocks.ts'
import { writeBatch } from '../src/spool/store.ts'
import type { CallFrame } from '../src/spool/traces.ts'
import { fmt, printTable, scratchDir } from './harness.ts'

const [transactions = 150_000, factoryPercent = 5, deployPercent = 1] = process.argv.slice(2).map(Number)
const PER_BLOCK = 100
const BLOCKS_PER_WRITE = 50

const q = (value: number): Hex => `0x${value.toString(16)}`
const word = (value: number, width = 64): Hex => `0x${value.toString(16).padStart(width, '0')}`
const code = (bytes: number, seed: number): Hex => `0x${(seed % 256).toString(16).padStart(2, '0').repeat(bytes)}`
const frame = (more: Partial<CallFrame> & Pick<CallFrame, 'from' | 'to'>): CallFrame => ({
  type: 'CALL', value: '0x0', gas: '0x30d40', gasUsed: '0x5208', input: '0x', output: null, error: null, calls: [], ...more,
})

const FACTORY = word(0xfac, 40)
const TOKEN = word(0x70c, 40)

/** One transaction of the mix, its receipt and its tree; `n` numbers it across the chain. */
function transaction(n: number, block: number, index: number) {
  const from = word(1 + (n % 500), 40)
  const hash = word(n + 1)
  const kind = n % 100 < deployPercent ? 'deploy' : n % 100 < deployPercent + factoryPercent ? 'factory' : 'call'
  const made = word(0x10_0000 + n, 40)
  const input: Hex = kind === 'deploy' ? code(5000, n) : kind === 'factory' ? `0xc9c65396${word(n).slice(2)}${word(n + 1).slice(2)}` : `0xa9059cbb${word(n).slice(2)}${word(1).slice(2)}`
  const to = kind === 'deploy' ? null : kind === 'factory' ? FACTORY : TOKEN
  const trace =
    kind === 'deploy'
      ? frame({ type: 'CREATE', from, to: made, input, output: code(4000, n) })
      : kind === 'factory'
        ? frame({ from, to, input, output: word(n), calls: [frame({ type: 'CREATE2', from: FACTORY, to: made, input: code(4500, n), output: code(4000, n) }), frame({ from: made, to: TOKEN, input: '0x70a08231', output: word(0) })] })
        : frame({ from, to, input, output: word(1) })
  return {
    tx: { hash, from, to, value: '0x0' as Hex, nonce: q(n), type: '0x2' as Hex, gas: q(200_000), input, transactionIndex: q(index) },
    receipt: { transactionHash: hash, transactionIndex: q(index), status: '0x1' as Hex, gasUsed: q(21_000), contractAddress: kind === 'deploy' ? made : null, logs: [] },
    trace,
  }
}

function bundle(block: number): BlockBundle {
  const txs = Array.from({ length: PER_BLOCK }, (_, index) => transaction((block - 1) * PER_BLOCK + index, block, index))
  return {
    block: { number: q(block), hash: word(0xb10c_0000 + block), parentHash: word(0xb10c_0000 + block - 1), timestamp: q(1000 + block), gasUsed: q(0), gasLimit: q(30_000_000), transactions: txs.map((t) => t.tx) },
    receipts: txs.map((t) => t.receipt),
    traces: txs.map((t) => t.trace),
  }
}

const path = join(scratchDir('creations'), 'spool.db')
const db = openSpool(path)
const writer = sqliteWriter(db)
const blocks = Math.ceil(transactions / PER_BLOCK)
for (let first = 1; first <= blocks; first += BLOCKS_PER_WRITE) {
  const run = Array.from({ length: Math.min(BLOCKS_PER_WRITE, blocks - first + 1) }, (_, offset) => bundle(first + offset))
  await writeBatch(writer, run)
}
const written = db.query<{ a: string; t: number; c: string; f: string | null }, []>('SELECT hex(address) AS a, tx_id AS t, hex(creator) AS c, frame AS f FROM contract_creations ORDER BY address, tx_id').all()
db.run('DROP TABLE contract_creations')
db.run("DELETE FROM migrations WHERE id = 'spool/004-contract-creations'")
closeSpool(db)

const started = performance.now()
const migrated = openSpool(path)
const ms = performance.now() - started
const filled = migrated.query<{ a: string; t: number; c: string; f: string | null }, []>('SELECT hex(address) AS a, tx_id AS t, hex(creator) AS c, frame AS f FROM contract_creations ORDER BY address, tx_id').all()
closeSpool(migrated)
if (JSON.stringify(filled) !== JSON.stringify(written)) throw new Error(`the migration filled ${filled.length} creations, the write path made ${written.length}`)
const check = new Database(path, { readonly: true })
const traces = check.query<{ n: number }, []>('SELECT count(*) AS n FROM traces').get()!.n
check.close()

printTable(
  'The creations index filled for an existing spool',
  ['transactions', 'traces', 'spool MB', 'creations', 'from frames', 'migration ms'],
  [[fmt.count(transactions), fmt.count(traces), fmt.count(statSync(path).size / 1e6), fmt.count(filled.length), fmt.count(filled.filter((row) => row.f !== null).length), fmt.count(ms)]],
  [`mix: ${factoryPercent}% factory calls (one CREATE2 frame each), ${deployPercent}% deployments, the rest token calls; the opening includes the other migrations' checks (none to apply)`],
)

// bun run bench:etherscan [transactions of the address] [seconds per route] [connections]
//
// The Etherscan-compatible API's txlist for an address with 100,000 transactions: page 1 and
// page 100 of 100 (offset 100, newest first), loaded by wrk from a second process next to the
// ceiling measured in the same run: a bare Bun.serve in a process of its own returning the same
// bytes and headers. The spool is written through its own write path with synthetic blocks of
// 100 transactions: every other one sent or received by the address (an ERC-20 transfer's
// input, which the decoder names), the rest between other accounts, so the address's rows are
// spread through a table twice their size. The listener runs with its real conventions (a log
// line per request at the default level, through a buffer into a file) and its per-client limit
// raised, so the bench measures the work, not the 429s.
import { sqliteDb, sqliteWriter } from '../src/spool/sqlite/engine.ts'
import type { Hex } from 'viem'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createEtherscanApp } from '../src/etherscan/app.ts'
import { listen } from '../src/http/serve.ts'
import { closeSpool, openReader, openSpool } from '../src/spool/sqlite/db.ts'
import type { BlockBundle, RawTx } from '../src/spool/fetchBlocks.ts'
import type { Spool } from '../src/spool/spool.ts'
import { writeBatch } from '../src/spool/store.ts'
import { againstCeiling, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir } from './harness.ts'

const [ownTransactions = 100_000, seconds = 3, connections = 4] = process.argv.slice(2).map(Number)
findWrk()

const PER_BLOCK = 100
const BLOCKS_PER_WRITE = 50
const ADDRESS: Hex = `0x${'a1'.repeat(20)}`
const TOKEN: Hex = `0x${'70'.repeat(20)}`
const q = (value: number): Hex => `0x${value.toString(16)}`
const word = (value: number | string, width = 64): Hex => `0x${value.toString(16).padStart(width, '0')}`

/** Block `number`: every even transaction is the address's (sent, or received from another account), every odd one between others. */
function block(number: number): BlockBundle {
  const transactions = Array.from({ length: PER_BLOCK }, (_, index): RawTx => {
    const n = number * PER_BLOCK + index
    const other = word(1 + (n % 997), 40)
    const own = index % 2 === 0
    const from = own && n % 4 === 0 ? ADDRESS : other
    const to = own && n % 4 !== 0 ? ADDRESS : TOKEN
    const input: Hex = `0xa9059cbb${word(other.slice(2)).slice(2)}${word(n).slice(2)}`
    return { hash: word(n + 1), from, to, value: q(n % 3), nonce: q(n), type: '0x2', gas: q(60_000), maxFeePerGas: q(2e9), maxPriorityFeePerGas: q(1e9), input, transactionIndex: q(index) }
  })
  return {
    block: {
      number: q(number),
      hash: word(0xb10c_0000 + number),
      parentHash: word(number === 0 ? 0 : 0xb10c_0000 + number - 1),
      timestamp: q(1_700_000_000 + number * 2),
      miner: word(0xfee, 40),
      gasUsed: q(PER_BLOCK * 35_000),
      gasLimit: q(30_000_000),
      baseFeePerGas: q(1e9),
      size: q(40_000),
      transactions,
    },
    receipts: transactions.map((tx) => ({
      transactionHash: tx.hash,
      transactionIndex: tx.transactionIndex,
      status: '0x1',
      gasUsed: q(35_000),
      effectiveGasPrice: q(15e8),
      contractAddress: null,
      logs: [],
    })),
    traces: null,
  }
}

const dir = scratchDir('etherscan')
const config = parseConfig(`[data]\ndir = "${dir}"\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[etherscan]\nport = 0\nrateLimitPerMinute = 1000000000\n`, null)
const path = `${config.dataDir}/spool.db`
const writer = openSpool(path)
const spoolWriter = sqliteWriter(writer)
const blocks = Math.ceil((ownTransactions * 2) / PER_BLOCK)
const writing = performance.now()
for (let first = 0; first < blocks; first += BLOCKS_PER_WRITE) {
  await writeBatch(spoolWriter, Array.from({ length: Math.min(BLOCKS_PER_WRITE, blocks - first) }, (_, offset) => block(first + offset)))
}
const writeSeconds = (performance.now() - writing) / 1000
closeSpool(writer)

const reader = openReader(path)
const logs = fileLogger(dir)
const context = { config, log: logs.log, chain: createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId }) }
// The listener reads the spool through its read-only connection alone; no follower, no node.
const etherscan = listen(createEtherscanApp(context, { reader: sqliteDb(reader) } as Spool), 'etherscan', '127.0.0.1', 0, logs.log)
const txlist = (page: number) => `/api?module=account&action=txlist&address=${ADDRESS}&startblock=0&endblock=99999999&page=${page}&offset=100&sort=desc`

const first = (await (await fetch(`${etherscan.url}${txlist(1)}`)).json()) as { result: Array<{ hash: string; functionName: string }> }
const last = (await (await fetch(`${etherscan.url}${txlist(100)}`)).json()) as { result: Array<{ hash: string }> }
if (first.result.length !== 100 || last.result.length !== 100 || first.result[0]!.functionName !== 'transfer(address to, uint256 value)') {
  throw new Error('txlist did not answer two full pages with named functions')
}

const rows: string[][] = []
for (const page of [1, 100]) {
  const measured = await againstCeiling(etherscan.url, [txlist(page)], { connections, seconds })
  rows.push([`txlist, page ${page} of 100`, String(Math.round(measured.bytes)), ...httpCells(measured)])
}
printTable(
  `Etherscan-compatible txlist for an address with ${fmt.count(ownTransactions)} transactions among ${fmt.count(blocks * PER_BLOCK)}, wrk from a second process, ${connections} connections, ${seconds} s per route`,
  ['route', 'bytes', ...HTTP_COLUMNS],
  rows,
  [
    `the spool written through its own write path in ${writeSeconds.toFixed(1)} s (${blocks.toLocaleString('en')} blocks)`,
    'ceiling: a bare Bun.serve in its own process returning the same bytes and headers for the same path, loaded the same way in the same run',
    `the listener logs at info, a line per request through a buffer into a file: ${logs.lines().toLocaleString('en')} lines`,
    'each route and its ceiling loaded three times in turn, the best run of each counted',
  ],
)
await etherscan.stop()
reader.close()

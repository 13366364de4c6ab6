// bun run bench:search [tokens] [seconds per query] [connections]
//
// The explorer's /api/search over 100,000 launched tokens (each with its pair), 100,000 `.bx`
// names and 10,000 tag labels (as many as the registry's 2 MB file takes) beside the registry's
// own tokens: each query loaded by wrk from a second process next to the ceiling measured in the
// same run, a bare Bun.serve in a process of its own returning the same bytes and headers. The
// spool is written through its own write path with synthetic blocks whose logs are the token
// launcher's, the factory's and the name registry's events; the registry is a copy of the
// repository's with the tags added. The explorer runs with its real conventions (a log line per
// request, through a buffer into a file) and its per-client limit raised.
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeAbiParameters, encodeEventTopics, getAddress, parseAbi, type Hex } from 'viem'
import { createChain } from '../src/chain/client.ts'
import { parseConfig } from '../src/config/load.ts'
import { createExplorerApp } from '../src/explorer/app.ts'
import { listen } from '../src/http/serve.ts'
import { closeSpool, openReader, openSpool } from '../src/spool/sqlite/db.ts'
import { sqliteDb, sqliteWriter } from '../src/spool/sqlite/engine.ts'
import type { BlockBundle, RawLog, RawTx } from '../src/spool/fetchBlocks.ts'
import { emptyHealth } from '../src/spool/health.ts'
import type { Spool } from '../src/spool/spool.ts'
import { writeBatch } from '../src/spool/store.ts'
import { pollUntil } from '../src/time/poll.ts'
import { againstCeiling, fileLogger, findWrk, fmt, HTTP_COLUMNS, httpCells, printTable, scratchDir } from './harness.ts'

const [tokens = 100_000, seconds = 3, connections = 4] = process.argv.slice(2).map(Number)
const TAGS = 10_000
findWrk()

const PER_BLOCK = 100
const BLOCKS_PER_WRITE = 50
const V2_FACTORY: Hex = '0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9'
const NAME_REGISTRY: Hex = '0x9A676e781A523b5d0C0e43731313A708CB607508'
const LAUNCHER: Hex = `0x${'1a'.repeat(20)}`
const WETH: Hex = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const q = (value: number): Hex => `0x${value.toString(16)}`
const word = (value: number | string, width = 64): Hex => `0x${value.toString(16).padStart(width, '0')}`
const events = parseAbi([
  'event TokenLaunched(address indexed token, address indexed pair, address indexed creator, string name, string symbol, uint256 supply, uint256 liquidityTokens, uint256 liquidityEth, uint256 fee)',
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256 index)',
  'event NameRegistered(bytes32 indexed id, address indexed owner, string label, uint256 expires, uint256 fee)',
])
const symbolOf = (n: number) => `TK${n.toString(36).toUpperCase()}`

/** Launch `n`: its pair created by the factory, then the launch; and the name `name-n` registered. */
function logsOf(n: number, hash: Hex, index: number): RawLog[] {
  const token = word(0x70_0000_0000 + n, 40)
  const pair = word(0x9a_0000_0000 + n, 40)
  const at = (logIndex: number) => ({ logIndex: q(logIndex), transactionIndex: q(index), transactionHash: hash })
  return [
    {
      address: V2_FACTORY,
      topics: encodeEventTopics({ abi: events, eventName: 'PairCreated', args: { token0: token, token1: WETH } }) as Hex[],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pair, BigInt(n)]),
      ...at(index * 3),
    },
    {
      address: LAUNCHER,
      topics: encodeEventTopics({ abi: events, eventName: 'TokenLaunched', args: { token, pair, creator: word(0xc0ffee, 40) } }) as Hex[],
      data: encodeAbiParameters(
        [{ type: 'string' }, { type: 'string' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }, { type: 'uint256' }],
        [`Token ${n}`, symbolOf(n), 10n ** 24n, 10n ** 23n, 10n ** 18n, 5n * 10n ** 16n],
      ),
      ...at(index * 3 + 1),
    },
    {
      address: NAME_REGISTRY,
      topics: encodeEventTopics({ abi: events, eventName: 'NameRegistered', args: { id: word(n + 1), owner: word(0xa11ce, 40) } }) as Hex[],
      data: encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }, { type: 'uint256' }], [`name-${n}`, 2_000_000_000n, 10n ** 19n]),
      ...at(index * 3 + 2),
    },
  ]
}

function block(number: number): BlockBundle {
  const transactions = Array.from({ length: PER_BLOCK }, (_, index): RawTx => {
    const n = number * PER_BLOCK + index
    return {
      hash: word(n + 1),
      from: word(0xc0ffee, 40),
      to: LAUNCHER,
      value: q(0),
      nonce: q(n),
      type: '0x2',
      gas: q(3_000_000),
      maxFeePerGas: q(2e9),
      maxPriorityFeePerGas: q(1e9),
      input: '0x',
      transactionIndex: q(index),
    }
  })
  return {
    block: {
      number: q(number),
      hash: word(0xb10c_0000 + number),
      parentHash: word(number === 0 ? 0 : 0xb10c_0000 + number - 1),
      timestamp: q(1_700_000_000 + number * 2),
      miner: word(0xfee, 40),
      gasUsed: q(PER_BLOCK * 2_000_000),
      gasLimit: q(300_000_000),
      baseFeePerGas: q(1e9),
      size: q(40_000),
      transactions,
    },
    receipts: transactions.map((tx, index) => ({
      transactionHash: tx.hash,
      transactionIndex: tx.transactionIndex,
      status: '0x1',
      gasUsed: q(2_000_000),
      effectiveGasPrice: q(15e8),
      contractAddress: null,
      logs: logsOf(number * PER_BLOCK + index, tx.hash, index),
    })),
    traces: null,
  }
}

const dir = scratchDir('search')
// The registry: the repository's, with TAGS more tags.
const registry = join(dir, 'registry')
cpSync(join(import.meta.dir, '../registry/testnet'), join(registry, 'testnet'), { recursive: true })
const tagsPath = join(registry, 'testnet/tags.json')
const tagFile = JSON.parse(readFileSync(tagsPath, 'utf8')) as { tags: Record<string, unknown> }
for (let n = 0; n < TAGS; n++) tagFile.tags[getAddress(word(0x7a60_0000 + n, 40))] = { name: `Contract ${n}`, category: 'protocol', project: 'Bench', url: null, logo: null }
writeFileSync(tagsPath, JSON.stringify(tagFile))

const config = parseConfig(
  `[data]\ndir = "${dir}"\n[chain]\nrpc = "http://127.0.0.1:9"\nws = "ws://127.0.0.1:9"\n[registry]\nsource = "${registry}"\n[explorer]\nport = 0\nrateLimitPerMinute = 1000000000\n`,
  null,
)
const path = `${config.dataDir}/spool.db`
const writer = openSpool(path)
const spoolWriter = sqliteWriter(writer)
const blocks = Math.ceil(tokens / PER_BLOCK)
const writing = performance.now()
for (let first = 0; first < blocks; first += BLOCKS_PER_WRITE) {
  await writeBatch(spoolWriter, Array.from({ length: Math.min(BLOCKS_PER_WRITE, blocks - first) }, (_, offset) => block(first + offset)))
}
const writeSeconds = (performance.now() - writing) / 1000
closeSpool(writer)

const reader = openReader(path)
const logs = fileLogger(dir)
const context = { config, log: logs.log, chain: createChain({ rpcUrl: config.chain.rpc, wsUrl: config.chain.ws, chainId: config.chain.chainId }) }
// The explorer reads the spool through its read-only connection alone; no follower, no node.
const health = emptyHealth(config.chain.chainId)
const spool = { reader: sqliteDb(reader), health: () => health, version: () => 1, onHealth: () => () => {} } as unknown as Spool
const explorer = listen(createExplorerApp(context, spool), 'explorer', '127.0.0.1', 0, logs.log)
const search = (text: string) => `/api/search?q=${encodeURIComponent(text)}`

// The first answer builds the indexes: timed apart from the load.
const building = performance.now()
const built = await pollUntil(
  async () => (await (await fetch(`${explorer.url}${await search('contract 9999')}`)).json()) as { go: string | null },
  (answer) => answer.go !== null,
  { timeoutMs: 120_000, intervalMs: 100 },
)
if (!built.met) throw new Error("the registry's tags never reached the search")
const buildSeconds = (performance.now() - building) / 1000

const cases: Array<[string, string]> = [
  ['one letter (the widest prefix)', await search('t')],
  ['a launched symbol, exact', await search(symbolOf(77_777))],
  ['a token name prefix', await search('token 4242')],
  ['a .bx name, exact', await search('name-31337')],
  ['a pair', await search(`${symbolOf(5)}/WETH`)],
  ['a tag label prefix', await search('contract 12')],
  ['a transaction hash', await search(word(12_345))],
]
for (const [what, query] of cases) {
  const answer = (await (await fetch(`${explorer.url}${query}`)).json()) as { results: unknown[] }
  if (answer.results.length === 0) throw new Error(`${what}: ${query} found nothing`)
}

const rows: string[][] = []
for (const [what, query] of cases) {
  const measured = await againstCeiling(explorer.url, [query], { connections, seconds })
  rows.push([what, String(Math.round(measured.bytes)), ...httpCells(measured)])
}
printTable(
  `Explorer /api/search over ${fmt.count(tokens)} launched tokens and their pairs, ${fmt.count(tokens)} .bx names and ${fmt.count(TAGS)} tag labels, wrk from a second process, ${connections} connections, ${seconds} s per query`,
  ['query', 'bytes', ...HTTP_COLUMNS],
  rows,
  [
    `the spool written through its own write path in ${writeSeconds.toFixed(1)} s (${fmt.count(blocks)} blocks, ${fmt.count(blocks * PER_BLOCK * 3)} logs); the indexes built by the first query in ${buildSeconds.toFixed(1)} s`,
    'ceiling: a bare Bun.serve in its own process returning the same bytes and headers for the same path, loaded the same way in the same run',
    `the explorer logs at info, a line per request through a buffer into a file: ${logs.lines().toLocaleString('en')} lines`,
    'each query and its ceiling loaded three times in turn, the best run of each counted',
  ],
)
await explorer.stop()
reader.close()

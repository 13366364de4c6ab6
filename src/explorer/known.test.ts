import { sqliteDb } from '../spool/sqlite/engine.ts'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, parseAbi, type Address, type Hex } from 'viem'
import { createContractBook, type ContractBook } from '../contracts/book.ts'
import { blob } from '../eth/bytes.ts'
import { openSpool } from '../spool/sqlite/db.ts'
import { openVerificationWriter } from '../spool/verified.ts'
import { KnownContracts, LOOKUPS_PER_ANSWER } from './known.ts'

// The explorer's memory of the contract book: one lookup per distinct address of a page, kept a
// few seconds, and a failed lookup (the node away) never kept.

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

const VERIFIED = '0x5FbDB2315678afecb367f032d93F642f64180aa3' as Address
const OTHER = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' as Address
const abi = parseAbi(['function record(uint256 amount, string note)'])
const record = encodeFunctionData({ abi, functionName: 'record', args: [1n, 'x'] }).slice(0, 10) as Hex
const transfer = '0xa9059cbb' as Hex

/** A spool file with `address` verified (the Etherscan listener's record), and a book over it that counts its lookups. */
async function bookOver(address: Address) {
  const folder = mkdtempSync(join(tmpdir(), 'stack-known-'))
  folders.push(folder)
  const path = join(folder, 'spool.sqlite')
  const db = openSpool(path)
  const writer = openVerificationWriter(path)
  await writer.record({
    address,
    blockNumber: null,
    match: 'exact_match',
    creationMatch: 'exact_match',
    runtimeMatch: 'exact_match',
    origin: 'etherscan',
    name: 'Ledger',
    compilerVersion: 'v0.8.37+commit.f401782d',
    codeHash: null,
    details: {
      abi,
      sources: {},
      contractIdentifier: 'Ledger.sol:Ledger',
      optimizer: { enabled: false, runs: 200 },
      evmVersion: null,
      libraries: {},
      constructorArguments: '',
      licence: null,
      stdJsonInput: null,
      immutableReferences: {},
    },
  })
  writer.close()
  const queries: string[] = []
  const reader = sqliteDb(db)
  const counted = { ...reader, all: <T,>(sql: string, ...params: Parameters<typeof reader.all>[1][]) => (queries.push(sql), reader.all<T>(sql, ...params)) }
  const real = createContractBook(counted)
  const asked: string[] = []
  let failing = false
  const book: ContractBook = {
    lookup: async (target) => {
      asked.push(target)
      if (failing) throw new Error('the node is away')
      return real.lookup(target)
    },
    proxyOf: real.proxyOf,
  }
  return { book, asked, queries, fail: (on: boolean) => (failing = on) }
}

test("the verifications of a page's targets are read in one query", async () => {
  const { book, queries } = await bookOver(VERIFIED)
  const others = Array.from({ length: 30 }, (_, n) => `0x${(n + 1).toString(16).padStart(40, '0')}`)
  const known = new KnownContracts(book, 3000)
  const found = await known.all([VERIFIED, ...others])
  expect(queries.filter((sql) => sql.includes('FROM verified_contracts'))).toHaveLength(1)
  expect(found.get(VERIFIED.toLowerCase())?.name).toBe('Ledger')
  expect(others.map((address) => found.get(address))).toEqual(others.map(() => null))
})

test("a page's methods are named with one lookup per distinct target, by the verified ABI, else the table", async () => {
  const { book, asked } = await bookOver(VERIFIED)
  const known = new KnownContracts(book, 3000)
  const name = await known.namer([blob(VERIFIED), VERIFIED.toLowerCase(), OTHER, null, '0x', blob(VERIFIED)])
  expect(asked).toHaveLength(2)
  expect(name(blob(VERIFIED), record)).toBe('record')
  expect(name(OTHER, record)).toBeNull()
  expect(name(OTHER, transfer)).toBe('transfer')
  expect(name(null, transfer)).toBe('transfer')
})

test('what the book said is kept for the age given, then asked again', async () => {
  let now = 1000
  const { book, asked } = await bookOver(VERIFIED)
  const known = new KnownContracts(book, 3000, () => now)
  await known.all([VERIFIED, OTHER])
  now += 2000
  await known.all([VERIFIED, OTHER])
  expect(asked).toHaveLength(2)
  now += 1500
  expect((await known.lookup(VERIFIED))?.name).toBe('Ledger')
  expect(asked).toHaveLength(3)
})

test('a lookup that fails names nothing and is not kept', async () => {
  const { book, asked, fail } = await bookOver(VERIFIED)
  const known = new KnownContracts(book, 3000)
  fail(true)
  expect(await known.lookup(VERIFIED)).toBeNull()
  fail(false)
  expect((await known.lookup(VERIFIED))?.name).toBe('Ledger')
  expect(asked).toHaveLength(2)
})

test('one answer looks up at most so many addresses, the first given; the rest are decoded by the table', async () => {
  const { book, asked } = await bookOver(VERIFIED)
  const known = new KnownContracts(book, 3000)
  const many = Array.from({ length: LOOKUPS_PER_ANSWER + 50 }, (_, index) => `0x${(index + 1).toString(16).padStart(40, '0')}`)
  const using = await known.decoders([...many, VERIFIED])
  expect(asked).toHaveLength(LOOKUPS_PER_ANSWER)
  expect(using(VERIFIED).abis).toEqual([])
  const first = await known.decoders([VERIFIED, ...many])
  expect(first(VERIFIED).abis).toHaveLength(1)
})

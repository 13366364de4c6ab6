import { sqliteDb, sqliteWriter } from './sqlite/engine.ts'
import { afterEach, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Address, Hex } from 'viem'
import { openSpool } from './sqlite/db.ts'
import { rollbackTo } from './store.ts'
import { openVerificationWriter, verifiedByCodeHash, verifiedCodeShapes, verifiedContract, verifiedProxy, type NewVerification } from './verified.ts'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function spoolWithBlocks(count: number) {
  const folder = mkdtempSync(join(tmpdir(), 'stack-verified-'))
  folders.push(folder)
  const path = join(folder, 'spool.sqlite')
  const db = openSpool(path)
  for (let number = 0; number < count; number++) {
    db.run('INSERT INTO blocks (number, hash, parent_hash, timestamp, gas_used, gas_limit, tx_count) VALUES (?, ?, ?, ?, 0, 30000000, 0)', [
      number,
      new Uint8Array(32).fill(number + 1),
      new Uint8Array(32).fill(number),
      1_700_000_000 + number,
    ])
  }
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)", [String(count - 1)])
  return { db, path }
}

const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const verification = (blockNumber: number | null, address: string = ADDRESS): NewVerification => ({
  address: address as Address,
  blockNumber,
  match: 'exact_match',
  creationMatch: 'exact_match',
  runtimeMatch: 'exact_match',
  origin: 'etherscan',
  name: 'Counter',
  compilerVersion: 'v0.8.37+commit.f401782d',
  codeHash: `0x${'ab'.repeat(32)}` as Hex,
  details: {
    abi: [{ type: 'function', name: 'count', inputs: [], outputs: [{ type: 'uint256', name: '' }], stateMutability: 'view' }],
    sources: { 'src/Counter.sol': 'contract Counter {}' },
    contractIdentifier: 'src/Counter.sol:Counter',
    optimizer: { enabled: false, runs: 200 },
    evmVersion: 'prague',
    libraries: {},
    constructorArguments: '',
    licence: 'MIT',
    stdJsonInput: null,
    immutableReferences: { '7': [{ start: 10, length: 32 }] },
  },
})

test('a verification is read back by address in any case, and by its code hash', async () => {
  const { db, path } = spoolWithBlocks(3)
  const writer = openVerificationWriter(path)
  const recorded = await writer.record(verification(2))
  expect(recorded?.address).toBe(ADDRESS)
  expect(recorded?.id).toBeGreaterThan(0)
  const read = await verifiedContract(sqliteDb(db), ADDRESS.toLowerCase())
  expect(read?.name).toBe('Counter')
  expect(read?.details.sources['src/Counter.sol']).toBe('contract Counter {}')
  expect((await verifiedByCodeHash(sqliteDb(db), `0x${'ab'.repeat(32)}`))?.address).toBe(ADDRESS)
  expect(await verifiedCodeShapes(sqliteDb(db))).toEqual([{ codeHash: `0x${'ab'.repeat(32)}`, immutableReferences: { '7': [{ start: 10, length: 32 }] } }])
  writer.close()
  db.close()
})

test('a verification whose creation block the spool does not hold is refused', async () => {
  const { db, path } = spoolWithBlocks(3)
  const writer = openVerificationWriter(path)
  expect(await writer.record(verification(7))).toBeNull()
  expect(await verifiedContract(sqliteDb(db), ADDRESS)).toBeNull()
  expect((await writer.record(verification(null)))?.blockNumber).toBeNull()
  writer.close()
  db.close()
})

test('a reorganisation below the creation takes the verification and the proxy confirmation back', async () => {
  const { db, path } = spoolWithBlocks(5)
  const writer = openVerificationWriter(path)
  const other = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
  await writer.record(verification(4))
  await writer.record(verification(1, other))
  await writer.recordProxy({ address: ADDRESS, implementation: other, blockNumber: 4 })
  expect((await verifiedProxy(sqliteDb(db), ADDRESS))?.implementation).toBe(other)
  await rollbackTo(sqliteWriter(db), 2)
  expect(await verifiedContract(sqliteDb(db), ADDRESS)).toBeNull()
  expect(await verifiedProxy(sqliteDb(db), ADDRESS)).toBeNull()
  expect((await verifiedContract(sqliteDb(db), other))?.blockNumber).toBe(1)
  writer.close()
  db.close()
})

import { sqliteDb, sqliteWriter } from '../spool/sqlite/engine.ts'
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeAbiParameters, pad, type Hex } from 'viem'
import { blob } from '../eth/bytes.ts'
import { txId } from '../spool/read.ts'
import { openSpool } from '../spool/sqlite/db.ts'
import type { SpoolLog } from '../spool/streams.ts'
import { rollbackTables } from '../spool/kit/tables.ts'
import { tokenHolders } from './read/balances.ts'
import { applyLogs, explorerMigrations, explorerTables } from './stream.ts'
import { TRANSFER_BATCH_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_TOPIC } from './transfers.ts'

const TOKEN = '0x1111111111111111111111111111111111111111'
const NFT = '0x2222222222222222222222222222222222222222'
const MULTI = '0x3333333333333333333333333333333333333333'
const ZERO = '0x0000000000000000000000000000000000000000'
const ALICE = '0xaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
const BOB = '0xbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'

const topic = (address: string) => blob(pad(address as Hex))
const word = (value: bigint) => blob(pad(`0x${value.toString(16)}` as Hex))

let nextIndex = 0

function log(block: number, address: string, topics: Uint8Array[], data: Hex = '0x'): SpoolLog {
  const index = nextIndex++
  return {
    txId: txId(block, 0),
    logIndex: index,
    blockNumber: block,
    address: blob(address),
    topic0: topics[0] ?? null,
    topic1: topics[1] ?? null,
    topic2: topics[2] ?? null,
    topic3: topics[3] ?? null,
    data: blob(data),
  }
}

const erc20 = (block: number, from: string, to: string, amount: bigint) => log(block, TOKEN, [blob(TRANSFER_TOPIC), topic(from), topic(to)], `0x${amount.toString(16).padStart(64, '0')}`)
const erc721 = (block: number, from: string, to: string, id: bigint) => log(block, NFT, [blob(TRANSFER_TOPIC), topic(from), topic(to), word(id)])
const single = (block: number, from: string, to: string, id: bigint, amount: bigint) =>
  log(block, MULTI, [blob(TRANSFER_SINGLE_TOPIC), topic(ALICE), topic(from), topic(to)], encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, amount]))
const batch = (block: number, from: string, to: string, ids: bigint[], amounts: bigint[]) =>
  log(block, MULTI, [blob(TRANSFER_BATCH_TOPIC), topic(ALICE), topic(from), topic(to)], encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, amounts]))

function fresh() {
  return openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-stream-')), 'spool.db'), explorerMigrations)
}

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`

function holdings(db: ReturnType<typeof fresh>) {
  return db
    .query<{ token: Uint8Array; token_id: string; holder: Uint8Array; amount: string }, []>('SELECT token, token_id, holder, amount FROM explorer_nft_holdings ORDER BY token, token_id, holder')
    .all()
    .map((row) => `${hex(row.token).slice(0, 4)} #${BigInt(row.token_id)} ${hex(row.holder).slice(0, 4)} ×${row.amount}`)
}

function tokens(db: ReturnType<typeof fresh>) {
  return db
    .query<{ address: Uint8Array; kind: number; transfers: number; minted: number }, []>('SELECT address, kind, transfers, minted FROM explorer_tokens ORDER BY address')
    .all()
    .map((row) => ({ token: hex(row.address).slice(0, 4), kind: row.kind, transfers: row.transfers, minted: row.minted }))
}

test('transfers of the three standards become rows, counts and holdings; other logs are left alone', async () => {
  const db = fresh()
  await sqliteWriter(db).transaction((tx) =>
    applyLogs(tx, [
      erc20(1, ZERO, ALICE, 1000n),
      erc20(2, ALICE, BOB, 250n),
      erc721(3, ZERO, ALICE, 7n),
      erc721(4, ALICE, BOB, 7n),
      erc721(5, ZERO, ALICE, 8n),
      single(6, ZERO, ALICE, 1n, 10n),
      batch(7, ALICE, BOB, [1n], [4n]),
      // A Transfer with an unexpected layout (no data, no third topic) is not a transfer.
      log(8, TOKEN, [blob(TRANSFER_TOPIC), topic(ALICE), topic(BOB)]),
    ]),
  )
  expect(db.query('SELECT count(*) AS n FROM explorer_transfers').get()).toEqual({ n: 7 })
  expect(tokens(db)).toEqual([
    { token: '0x11', kind: 20, transfers: 2, minted: 1 },
    { token: '0x22', kind: 721, transfers: 3, minted: 2 },
    { token: '0x33', kind: 1155, transfers: 2, minted: 1 },
  ])
  expect(holdings(db)).toEqual(['0x22 #7 0xbb ×1', '0x22 #8 0xaa ×1', '0x33 #1 0xaa ×6', '0x33 #1 0xbb ×4'])
})

test('a rollback forgets what came after the ancestor and restores holders and counts', async () => {
  const db = fresh()
  const writer = sqliteWriter(db)
  await writer.transaction((tx) => applyLogs(tx, [erc721(1, ZERO, ALICE, 7n), erc20(1, ZERO, ALICE, 5n), single(2, ZERO, ALICE, 1n, 10n)]))
  await writer.transaction((tx) => applyLogs(tx, [erc721(3, ALICE, BOB, 7n), erc721(3, ZERO, BOB, 9n), batch(4, ALICE, BOB, [1n], [10n]), erc20(4, ALICE, BOB, 5n)]))
  expect(holdings(db)).toEqual(['0x22 #7 0xbb ×1', '0x22 #9 0xbb ×1', '0x33 #1 0xbb ×10'])
  await writer.transaction((tx) => rollbackTables(tx, explorerTables, 2))
  expect(holdings(db)).toEqual(['0x22 #7 0xaa ×1', '0x33 #1 0xaa ×10'])
  expect(tokens(db)).toEqual([
    { token: '0x11', kind: 20, transfers: 1, minted: 1 },
    { token: '0x22', kind: 721, transfers: 1, minted: 1 },
    { token: '0x33', kind: 1155, transfers: 1, minted: 1 },
  ])
  await writer.transaction((tx) => rollbackTables(tx, explorerTables, 0))
  expect(tokens(db)).toEqual([])
  expect(holdings(db)).toEqual([])
})

test('after a rollback the tables equal a run that never saw the orphaned blocks, whatever the passes', async () => {
  const CAROL = '0xcccccccccccccccccccccccccccccccccccccccc'
  const people = [ALICE, BOB, CAROL]
  // Items passed around, minted, burned and moved in batches over twelve blocks.
  const logs: SpoolLog[] = []
  for (let block = 1; block <= 12; block++) {
    const [a, b] = [people[block % 3]!, people[(block + 1) % 3]!]
    logs.push(erc20(block, block === 1 ? ZERO : a, b, BigInt(block)))
    logs.push(erc721(block, block <= 2 ? ZERO : a, block % 5 === 0 ? ZERO : b, BigInt(block % 3)))
    logs.push(single(block, block <= 3 ? ZERO : a, b, 1n, 2n))
    logs.push(batch(block, ZERO, a, [1n, 2n], [3n, 1n]))
  }
  const dump = (db: ReturnType<typeof fresh>) =>
    Object.fromEntries(
      ['explorer_transfers', 'explorer_tokens', 'explorer_tokens_history', 'explorer_nft_holdings', 'explorer_nft_holdings_history', 'explorer_balances', 'explorer_balances_history'].map((table) => [
        table,
        db
          .query<Record<string, unknown>, []>(`SELECT * FROM ${table}`)
          .all()
          .map((row) => JSON.stringify(row, (_key, value) => (value instanceof Uint8Array ? hex(value) : value)))
          .sort(),
      ]),
    )
  const run = async (upTo: number, passSize: number) => {
    const db = fresh()
    const writer = sqliteWriter(db)
    const kept = logs.filter((log) => log.blockNumber <= upTo)
    for (let at = 0; at < kept.length; at += passSize) await writer.transaction((tx) => applyLogs(tx, kept.slice(at, at + passSize)))
    return { db, writer }
  }
  for (const ancestor of [0, 3, 7, 11]) {
    for (const passSize of [1, 3, 7, 100]) {
      const rolled = await run(12, passSize)
      await rolled.writer.transaction((tx) => rollbackTables(tx, explorerTables, ancestor))
      expect([ancestor, passSize, dump(rolled.db)]).toEqual([ancestor, passSize, dump((await run(ancestor, 5)).db)])
    }
  }
})

/** The ERC-20 holders of TOKEN, largest first, as `holder ×balance`. */
const balances = async (db: ReturnType<typeof fresh>) => (await tokenHolders(sqliteDb(db), blob(TOKEN), { limit: 100, offset: 0 })).map((row) => `${hex(row.holder).slice(0, 4)} ×${row.balance}`)

test('ERC-20 balances by holder: minted, moved, ranked largest first, a holder of nothing gone; a rollback restores them', async () => {
  const db = fresh()
  const writer = sqliteWriter(db)
  await writer.transaction((tx) => applyLogs(tx, [erc20(1, ZERO, ALICE, 10n ** 30n), erc20(1, ALICE, BOB, 7n)]))
  expect(await balances(db)).toEqual([`0xaa ×${10n ** 30n - 7n}`, '0xbb ×7'])
  await writer.transaction((tx) => applyLogs(tx, [erc20(2, BOB, ALICE, 7n), erc20(2, ALICE, ZERO, 1n)]))
  expect(await balances(db)).toEqual([`0xaa ×${10n ** 30n - 1n}`])
  await writer.transaction((tx) => rollbackTables(tx, explorerTables, 1))
  expect(await balances(db)).toEqual([`0xaa ×${10n ** 30n - 7n}`, '0xbb ×7'])
})

test('a token that logs a transfer out of a holder of nothing leaves its balance at zero, never below', async () => {
  const db = fresh()
  await sqliteWriter(db).transaction((tx) => applyLogs(tx, [erc20(1, BOB, ALICE, 5n)]))
  expect(await balances(db)).toEqual(['0xaa ×5'])
})

test('the balances of a spool made before them are summed from the transfers it holds', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-explorer-balances-')), 'spool.db')
  const before = explorerMigrations.filter((migration) => migration.id !== 'explorer/003-balances')
  const old = openSpool(path, before)
  const insert = old.prepare('INSERT INTO explorer_transfers (tx_id, log_index, seq, block_number, token, kind, from_addr, to_addr, token_id, amount) VALUES (?, ?, 0, 1, ?, 20, ?, ?, NULL, ?)')
  insert.run(txId(1, 0), 0, blob(TOKEN), blob(ZERO), blob(ALICE), '100')
  insert.run(txId(1, 0), 1, blob(TOKEN), blob(ALICE), blob(BOB), '40')
  insert.run(txId(1, 0), 2, blob(TOKEN), blob(BOB), blob(ZERO), '40')
  old.close()
  const db = openSpool(path, explorerMigrations)
  expect(await balances(db)).toEqual(['0xaa ×60'])
})

import { sqliteDb, sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { parseConfig } from '../../src/config/load.ts'
import { blob, hex } from '../../src/eth/bytes.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { spoolHead, streamPosition, txId } from '../../src/spool/read.ts'
import { rollbackTo } from '../../src/spool/store.ts'
import { rollbackStream, runPass, type BlockPassLimits } from '../../src/spool/streams.ts'
import { callFrame, writeBlock, type SyntheticTx } from '../helpers/spoolBlocks.ts'
import { countTally, dumpTally, storedTally } from '../helpers/tally.ts'
import { chartPoints } from '../../src/explorer/routes/overview.ts'
import { accountCounts, contractCreation, contractsCreatedBy, rankedAccounts, tallyTotals } from '../../src/explorer/read/tally.ts'
import { explorerMigrations } from '../../src/explorer/stream.ts'
import { ChainTally } from '../../src/explorer/tally.ts'
import { tallyStream } from '../../src/explorer/tallyStream.ts'

const A: Hex = `0x${'aa'.repeat(20)}`
const B: Hex = `0x${'bb'.repeat(20)}`
const C: Hex = `0x${'c0'.repeat(20)}`
const FACTORY: Hex = `0x${'cc'.repeat(20)}`
const PAIR: Hex = `0x${'dd'.repeat(20)}`
const PAIR2: Hex = `0x${'de'.repeat(20)}`
const FAILED: Hex = `0x${'ee'.repeat(20)}`

const tally = tallyStream(parseConfig('', null))

function spool() {
  return openSpool(join(mkdtempSync(join(tmpdir(), 'stack-explorer-tally-')), 'spool.db'), explorerMigrations)
}

type Db = ReturnType<typeof spool>

/** Passes of the tally stream until it has caught up with the spool; how many it took. */
async function derive(db: Db, limits?: BlockPassLimits): Promise<number> {
  const head = (await spoolHead(sqliteDb(db))) ?? -1
  const writer = sqliteWriter(db)
  for (let passes = 1; ; passes++) if ((await runPass(writer, tally, head, { blocks: limits })).caughtUp) return passes
}

/** `count` transactions from `from` to `to`. */
const transfers = (count: number, from: Hex = A, to: Hex = B): SyntheticTx[] => Array.from({ length: count }, () => ({ from, to }))

/** A chain with every case the tally counts: creations at the top and inside calls (one failed), self-sends, empty blocks, a block bigger than a pass. */
async function busyChain(db: Db) {
  await writeBlock(db, 0)
  await writeBlock(db, 1, [
    { from: A, to: B },
    { from: A, to: null, created: FACTORY, trace: { type: 'CREATE', to: FACTORY } },
  ])
  await writeBlock(db, 2, [
    // The factory makes two pairs in one call; a third creation fails and makes nothing.
    {
      from: B,
      to: FACTORY,
      trace: { calls: [callFrame(FACTORY, PAIR, { type: 'CREATE2' }), callFrame(FACTORY, FAILED, { type: 'CREATE2', error: 'reverted' }), callFrame(FACTORY, PAIR2, { type: 'CREATE2' })] },
    },
    { from: A, to: A },
  ])
  await writeBlock(db, 3)
  await writeBlock(db, 4, transfers(7, C, A))
  await writeBlock(db, 5, [
    { from: C, to: PAIR },
    { from: B, to: B },
  ])
}

test('the tally equals a count over the whole spool, creations inside calls included, whatever the passes', async () => {
  const db = spool()
  await busyChain(db)
  // Passes of at most three transactions: block 4 (seven) still goes whole, in a pass of its own.
  expect(await derive(db, { txs: 3, blocks: 100 })).toBe(4)
  expect(storedTally(db)).toEqual(await countTally(db))
  const wide = spool()
  await busyChain(wide)
  expect(await derive(wide)).toBe(1)
  expect(dumpTally(wide)).toEqual(dumpTally(db))

  // The figures themselves, so that the count above is checked too.
  expect(await tallyTotals(sqliteDb(db))).toEqual({ blocks: 6, transactions: 13, gasUsed: 273_000n, wallets: 3, accounts: 5, contracts: 3 })
  expect(await new ChainTally(sqliteDb(db)).totals()).toEqual(await tallyTotals(sqliteDb(db)))
  expect(await accountCounts(sqliteDb(db), blob(A))).toEqual({ sent: 3, received: 8, self: 1 })
  expect(await accountCounts(sqliteDb(db), blob(FACTORY))).toEqual({ sent: 0, received: 2, self: 0 })
  expect(await accountCounts(sqliteDb(db), blob(PAIR2))).toEqual({ sent: 0, received: 0, self: 0 })
  const creation = (await contractCreation(sqliteDb(db), blob(PAIR)))!
  expect([hex(creation.creator), creation.txId]).toEqual([FACTORY, txId(2, 0)])
  expect(hex((await contractCreation(sqliteDb(db), blob(FACTORY)))!.creator)).toBe(A)
  expect(await contractCreation(sqliteDb(db), blob(FAILED))).toBeNull()
  // In the order the factory made them, not by address.
  expect((await contractsCreatedBy(sqliteDb(db), blob(FACTORY), 100)).map((row) => hex(row.contract))).toEqual([PAIR, PAIR2])
  expect((await contractsCreatedBy(sqliteDb(db), blob(FACTORY), 1)).map((row) => hex(row.contract))).toEqual([PAIR])
  // Busiest first (a self-send once), ties by address; contracts seen created are marked.
  const ranked = (await rankedAccounts(sqliteDb(db), { limit: 10, offset: 0 })).map((row) => [hex(row.address), row.txCount, row.contract])
  expect(ranked).toEqual([
    [A, 10, false],
    [C, 8, false],
    [B, 3, false],
    [FACTORY, 2, true],
    [PAIR, 1, true],
  ])
  expect((await rankedAccounts(sqliteDb(db), { limit: 2, offset: 1 })).map((row) => hex(row.address))).toEqual([C, B])
})

test('a spool that starts above block zero, and holds nothing yet', async () => {
  const db = spool()
  expect(await derive(db)).toBe(1)
  expect(await tallyTotals(sqliteDb(db))).toEqual({ blocks: 0, transactions: 0, gasUsed: 0n, wallets: 0, accounts: 0, contracts: 0 })
  await writeBlock(db, 100, transfers(2))
  await writeBlock(db, 101, transfers(1, B, A))
  await derive(db)
  expect(storedTally(db)).toEqual(await countTally(db))
  expect((await streamPosition(sqliteDb(db), 'tally')).cursorBlock).toBe(101)
})

test('a reorganisation puts the tally back as it stood at the ancestor, touching only what came after it', async () => {
  const db = spool()
  const before = spool()
  // Forty blocks of settled history, then five that will be orphaned.
  const settled = async (target: Db) => {
    await busyChain(target)
    for (let number = 6; number < 40; number++) await writeBlock(target, number, transfers(2, number % 2 ? A : C, number % 3 ? B : C))
  }
  await settled(db)
  for (let number = 40; number < 45; number++)
    await writeBlock(db, number, [
      { from: B, to: FACTORY, trace: { calls: [callFrame(FACTORY, `0x${number.toString(16).padStart(40, '0')}`, { type: 'CREATE' })] } },
      { from: C, to: C },
    ])
  await derive(db, { txs: 4, blocks: 100 })
  const history = (target: Db) => dumpTally(target).explorer_accounts_history!.filter((row) => JSON.parse(row).block <= 39)
  const settledHistory = history(db)
  const totalsHistory = dumpTally(db).explorer_totals_history!.filter((row) => JSON.parse(row).block <= 39)

  const changes = () => db.query<{ n: number }, []>('SELECT total_changes() AS n').get()!.n
  const orphanedEntries = ['explorer_totals_history', 'explorer_accounts_history'].reduce(
    (sum, table) => sum + db.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table} WHERE block > 39`).get()!.n,
    0,
  )
  const orphanedContracts = db.query<{ n: number }, []>('SELECT count(*) AS n FROM explorer_contracts WHERE block > 39').get()!.n
  expect(orphanedContracts).toBe(5)
  let rolledBack = 0
  await rollbackTo(sqliteWriter(db), 39, async (tx) => {
    const start = changes()
    await rollbackStream(tx, tally, 39)
    rolledBack = changes() - start
  })
  // Each orphaned history entry dropped and at most one row put back for it, each orphaned
  // contract deleted, the cursor written: nothing below the ancestor is read or written again.
  expect(rolledBack).toBeGreaterThan(0)
  expect(rolledBack).toBeLessThanOrEqual(2 * orphanedEntries + orphanedContracts + 1)

  // Exactly what a derivation that never saw the orphaned blocks leaves, history included.
  await settled(before)
  await derive(before)
  expect(dumpTally(db)).toEqual(dumpTally(before))
  expect(history(db)).toEqual(settledHistory)
  expect(dumpTally(db).explorer_totals_history!.filter((row) => JSON.parse(row).block <= 39)).toEqual(totalsHistory)
  expect((await streamPosition(sqliteDb(db), 'tally')).cursorBlock).toBe(39)

  // The other branch: two blocks from other senders.
  for (const target of [db, before]) {
    await writeBlock(target, 40, [{ from: PAIR, to: A }], 7)
    await writeBlock(target, 41, transfers(3, B, PAIR), 7)
  }
  await derive(db, { txs: 2, blocks: 100 })
  await derive(before)
  expect(dumpTally(db)).toEqual(dumpTally(before))
  expect(storedTally(db)).toEqual(await countTally(db))
})

test('charts prefer blocks with transactions and fall back to every block below four of them', async () => {
  const db = spool()
  for (let number = 0; number < 10; number++) await writeBlock(db, number, transfers(number === 3 || number === 6 ? 1 : 0))
  expect((await chartPoints(sqliteDb(db), 48)).map((point) => point.number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  expect((await chartPoints(sqliteDb(db), 4)).map((point) => point.number)).toEqual([6, 7, 8, 9])
  await writeBlock(db, 10, transfers(2))
  await writeBlock(db, 11)
  await writeBlock(db, 12, transfers(1))
  expect(await chartPoints(sqliteDb(db), 48)).toEqual([
    { number: 3, timestamp: 1006, txCount: 1, gasUsed: 21_000 },
    { number: 6, timestamp: 1012, txCount: 1, gasUsed: 21_000 },
    { number: 10, timestamp: 1020, txCount: 2, gasUsed: 42_000 },
    { number: 12, timestamp: 1024, txCount: 1, gasUsed: 21_000 },
  ])
  // Four blocks with transactions exist: a small limit takes the newest of them, not every block.
  expect((await chartPoints(sqliteDb(db), 2)).map((point) => point.number)).toEqual([10, 12])
  expect((await chartPoints(sqliteDb(db), 1)).map((point) => point.number)).toEqual([12])
})

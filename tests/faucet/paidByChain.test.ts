import { sqliteDb } from '../../src/spool/sqlite/engine.ts'
import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeFunctionData, hexToBytes, toFunctionSelector, type Address, type Hex } from 'viem'
import { faucetAbi } from '../../src/faucet/contract.ts'
import { utcDay } from '../../src/faucet/quota/day.ts'
import { successfulCalls } from '../../src/faucet/read/faucetReader.ts'
import { paidByChain } from '../../src/faucet/reconcile.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { writeBlock } from '../helpers/spoolBlocks.ts'

// What the chain shows the faucet paid, read from a spool written with a small synthetic chain:
// the operator's drips to the faucet contract, one that reverted, a call of another function, and
// a drip call somebody else sent.

const OPERATOR: Address = `0x${'0a'.repeat(20)}`
const FAUCET: Address = `0x${'fa'.repeat(20)}`
const STRANGER: Address = `0x${'5e'.repeat(20)}`
const ALICE: Address = `0x${'a1'.repeat(20)}`
const BOB: Address = `0x${'b0'.repeat(20)}`
const dripTo = (to: Address): Hex => encodeFunctionData({ abi: faucetAbi, functionName: 'dripTo', args: [to] })
const DRIP_TO = hexToBytes(toFunctionSelector('function dripTo(address to)'))

const dir = mkdtempSync(join(tmpdir(), 'stack-paid-'))
const db = openSpool(join(dir, 'spool.db'))
afterAll(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})
await writeBlock(db, 0)
await writeBlock(db, 1, [
  { from: OPERATOR, to: FAUCET, input: dripTo(ALICE) },
  { from: OPERATOR, to: FAUCET, input: dripTo(BOB), reverted: true },
  { from: OPERATOR, to: FAUCET, input: '0xd0e30db0' },
  { from: STRANGER, to: FAUCET, input: dripTo(BOB) },
])
await writeBlock(db, 2, [
  { from: OPERATOR, to: FAUCET, input: dripTo(BOB) },
  { from: OPERATOR, to: FAUCET, input: dripTo(ALICE) },
])

test("the operator's successful calls of one function to the faucet, oldest first, with their block's time", async () => {
  const calls = await successfulCalls(sqliteDb(db), hexToBytes(OPERATOR), hexToBytes(FAUCET), DRIP_TO)
  expect(calls.map((call) => [Buffer.from(call.input).toString('hex'), call.timestamp])).toEqual([
    [dripTo(ALICE).slice(2), 1002],
    [dripTo(BOB).slice(2), 1004],
    [dripTo(ALICE).slice(2), 1004],
  ])
  expect(await successfulCalls(sqliteDb(db), hexToBytes(STRANGER), hexToBytes(FAUCET), hexToBytes('0xd0e30db0'))).toEqual([])
})

test('the drips the chain paid: all time, and on the day per funded address', async () => {
  const today = utcDay(1002 * 1000)
  const paid = await paidByChain(sqliteDb(db), OPERATOR, FAUCET, today)
  expect(paid).toEqual({
    day: today,
    global: 3,
    addresses: new Map([
      [ALICE.toLowerCase(), 2],
      [BOB.toLowerCase(), 1],
    ]),
    allTime: 3,
  })
  expect(await paidByChain(sqliteDb(db), OPERATOR, FAUCET, '2000-01-01')).toEqual({ day: '2000-01-01', global: 0, addresses: new Map(), allTime: 3 })
})

import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Hex } from 'viem'
import { blob, hex } from '../../src/eth/bytes.ts'
import { txId } from '../../src/spool/codec.ts'
import { ENGINES, engineSpool, type EngineSpool } from '../helpers/spoolEngines.ts'
import type { SpoolDb } from '../../src/spool/engine.ts'
import type { BlockBundle, RawLog, RawTx } from '../../src/spool/fetchBlocks.ts'
import * as read from '../../src/spool/read.ts'
import type { CallFrame } from '../../src/spool/traces.ts'

// The read API over a real spool on each engine (the embedded file and PostgreSQL), filled
// through each engine's own write path with a small chain, giving the same answers on both: block 0 empty; block 1 a contract creation by A and a call from A to B with two logs;
// block 2 empty; block 3 a reverted call from B to A, a plain transfer from B to A, and a call
// from A into the created contract whose trace creates another contract.

const A: Hex = `0x${'aa'.repeat(20)}`
const B: Hex = `0x${'bb'.repeat(20)}`
const MADE: Hex = `0x${'cc'.repeat(20)}`
const INNER: Hex = `0x${'dd'.repeat(20)}`
const TOPIC: Hex = `0x${'11'.repeat(32)}`
const q = (value: number | bigint): Hex => `0x${value.toString(16)}`
const hash = (kind: number, n: number): Hex => `0x${kind.toString(16).padStart(2, '0')}${n.toString(16).padStart(62, '0')}`

type TxSpec = { from: Hex; to: Hex | null; input?: Hex; status?: 0 | 1; created?: Hex; logs?: number; trace?: Partial<CallFrame> }

function bundle(number: number, txs: TxSpec[]): BlockBundle {
  const txHash = (index: number) => hash(0xf0, number * 16 + index)
  const transactions: RawTx[] = txs.map((tx, index) => ({
    hash: txHash(index),
    from: tx.from,
    to: tx.to,
    value: q(index + 1),
    nonce: q(index),
    type: '0x2',
    gas: q(100_000),
    maxFeePerGas: q(2),
    maxPriorityFeePerGas: q(1),
    input: tx.input ?? '0x',
    transactionIndex: q(index),
  }))
  return {
    block: {
      number: q(number),
      hash: hash(0xb0, number),
      parentHash: number === 0 ? hash(0, 0) : hash(0xb0, number - 1),
      timestamp: q(1000 + number * 2),
      miner: A,
      gasUsed: q(21_000 * txs.length),
      gasLimit: q(30_000_000),
      baseFeePerGas: q(7),
      size: q(500),
      transactions,
    },
    receipts: txs.map((tx, index) => ({
      transactionHash: txHash(index),
      transactionIndex: q(index),
      status: q(tx.status ?? 1),
      gasUsed: q(21_000),
      effectiveGasPrice: q(8),
      contractAddress: tx.created ?? null,
      logs: Array.from({ length: tx.logs ?? 0 }, (_, logIndex): RawLog => ({
        address: tx.to ?? tx.created!,
        topics: [TOPIC],
        data: `0x0${logIndex}`,
        logIndex: q(logIndex),
        transactionIndex: q(index),
        transactionHash: txHash(index),
      })),
    })),
    traces: txs.map((tx) => ({ type: 'CALL', from: tx.from, to: tx.to, value: '0x0', gas: null, gasUsed: null, input: tx.input ?? '0x', output: null, error: null, calls: [], ...tx.trace })),
  }
}

const CALL: Hex = '0xa9059cbb00000000'
const created: CallFrame = { type: 'CREATE2', from: MADE, to: INNER, value: '0x0', gas: null, gasUsed: null, input: '0x', output: null, error: null, calls: [] }

/** The small chain the tests read. */
const SMALL_CHAIN = () => [
  bundle(0, []),
  bundle(1, [
    { from: A, to: null, input: '0x6080', created: MADE },
    { from: A, to: B, input: CALL, logs: 2 },
  ]),
  bundle(2, []),
  bundle(3, [
    { from: B, to: A, input: CALL, status: 0 },
    { from: B, to: A },
    { from: A, to: MADE, input: '0x12345678', trace: { to: MADE, calls: [created] } },
  ]),
]

describe.each(ENGINES)('on %s', (engine) => {
  let spool: EngineSpool
  let db: SpoolDb
  beforeAll(async () => {
    spool = await engineSpool(engine, 'read')
    db = spool.db
  })
  afterAll(() => spool.close())

  describe('before the first block', () => {
    test('no head, no blocks, a stream before everything', async () => {
      expect(await read.spoolHead(db)).toBeNull()
      expect(await read.latestMini(db)).toBeNull()
      expect(await read.blockCount(db)).toBe(0)
      expect(await read.streamPosition(db, 'any')).toEqual({ cursorBlock: null, lagBlocks: null, updatedAt: null })
    })
  })

  describe('over a small chain', () => {
    beforeAll(async () => {
      await spool.write(SMALL_CHAIN())
    })

    test('the head and the streams: position, lag (one formula) and a version that moves with a pass', async () => {
      expect(await read.spoolHead(db)).toBe(3)
      expect(read.streamLag(3, null)).toBe(4)
      expect(read.streamLag(null, 2)).toBeNull()
      expect(await read.streamPosition(db, 'toy')).toEqual({ cursorBlock: null, lagBlocks: 4, updatedAt: null })
      const before = await read.streamsVersion(db, ['toy', 'other'])
      await spool.moveStream('toy', { txId: txId(3, 0) - 1, logIndex: 0, blockNumber: 2 })
      const position = await read.streamPosition(db, 'toy')
      expect({ ...position, updatedAt: typeof position.updatedAt }).toEqual({ cursorBlock: 2, lagBlocks: 1, updatedAt: 'string' })
      expect((await read.streamPosition(db, 'toy', 10)).lagBlocks).toBe(8)
      expect(await read.streamsVersion(db, ['toy', 'other'])).not.toBe(before)
      expect(await read.streamsVersion(db, ['toy', 'other'])).toBe(await read.streamsVersion(db, ['toy', 'other']))
    })

    test('blocks: in full, by hash, newest first (active ones too), forward in steps, times, count', async () => {
      const block = (await read.blockByNumber(db, 1))!
      expect({ ...block, hash: hex(block.hash), parentHash: hex(block.parentHash), miner: hex(block.miner) }).toEqual({
        number: 1,
        hash: hash(0xb0, 1),
        timestamp: 1002,
        gasUsed: 42_000,
        txCount: 2,
        miniCount: 1,
        parentHash: hash(0xb0, 0),
        miner: A,
        gasLimit: 30_000_000,
        baseFee: '7',
        size: 500,
      })
      expect(await read.blockByNumber(db, 9)).toBeNull()
      expect(hex(await read.blockHash(db, 2))).toBe(hash(0xb0, 2))
      expect(await read.blockHash(db, 9)).toBeNull()
      expect((await read.latestBlocks(db, { limit: 2 })).map((row) => row.number)).toEqual([3, 2])
      expect((await read.latestBlocks(db, { limit: 2, offset: 2 })).map((row) => row.number)).toEqual([1, 0])
      expect((await read.latestBlocks(db, { limit: 10, active: true })).map((row) => [row.number, row.txCount, row.miniCount])).toEqual([
        [3, 3, 1],
        [1, 2, 1],
      ])
      expect(await read.recentBlockTimes(db, 2)).toEqual([1006, 1004])
      expect(await read.blockCount(db)).toBe(4)
    })

    test('block headers, newest first (active ones too), without the mini-block count', async () => {
      const [newest] = await read.latestBlockHeaders(db, { limit: 1 })
      expect({ ...newest!, hash: hex(newest!.hash) }).toEqual({ number: 3, hash: hash(0xb0, 3), timestamp: 1006, gasUsed: 63_000, txCount: 3 })
      expect((await read.latestBlockHeaders(db, { limit: 2, offset: 1 })).map((row) => row.number)).toEqual([2, 1])
      expect((await read.latestBlockHeaders(db, { limit: 10, active: true })).map((row) => [row.number, row.txCount])).toEqual([
        [3, 3],
        [1, 2],
      ])
    })

    test('mini-blocks: each block its own here, by number, hash and block, newest first, times, count', async () => {
      const mini = (await read.miniByNumber(db, 3))!
      expect({ ...mini, hash: hex(mini.hash) }).toEqual({ number: 3, blockNumber: 3, hash: hash(0xb0, 3), timestampUs: 1_006_000_000, txCount: 3 })
      expect((await read.miniByHash(db, blob(hash(0xb0, 1))))?.number).toBe(1)
      expect(await read.miniByHash(db, blob(hash(0xb0, 9)))).toBeNull()
      expect((await read.minisOfBlock(db, 1)).map((row) => row.number)).toEqual([1])
      expect(await read.minisOfBlock(db, 9)).toEqual([])
      expect((await read.latestMinis(db, { limit: 2, offset: 1 })).map((row) => row.number)).toEqual([2, 1])
      expect((await read.latestMini(db))?.number).toBe(3)
      expect(await read.recentMiniTimes(db, 2)).toEqual([1_006_000_000, 1_004_000_000])
      expect(await read.miniFirstTxIndex(db, mini)).toBe(0)
      expect(await read.miniCount(db)).toBe(4)
    })

    test('transactions: in full by id and hash, newest first, by block from an index, by ids', async () => {
      const tx = (await read.txByHash(db, blob(hash(0xf0, 3 * 16 + 2))))!
      expect({ ...tx, hash: hex(tx.hash), from: hex(tx.from), to: hex(tx.to), selector: hex(tx.selector), blockHash: hex(tx.blockHash), input: hex(tx.input) }).toEqual({
        id: txId(3, 2),
        hash: hash(0xf0, 3 * 16 + 2),
        blockNumber: 3,
        index: 2,
        from: A,
        to: MADE,
        created: null,
        value: '3',
        selector: '0x12345678',
        status: 1,
        gasUsed: 21_000,
        effectiveGasPrice: '8',
        timestamp: 1006,
        blockHash: hash(0xb0, 3),
        nonce: 2,
        type: 2,
        gas: 100_000,
        gasPrice: null,
        maxFee: '2',
        maxPriorityFee: '1',
        input: '0x12345678',
      })
      expect(await read.txById(db, txId(3, 2))).toEqual(tx)
      expect(await read.txById(db, txId(2, 0))).toBeNull()
      expect(await read.txByHash(db, blob(hash(0xf0, 99)))).toBeNull()
      // A plain transfer has no selector; a creation names its contract.
      expect((await read.txById(db, txId(3, 1)))!.selector).toBeNull()
      expect(hex((await read.txById(db, txId(1, 0)))!.created)).toBe(MADE)
      expect((await read.latestTxs(db, { limit: 2 })).map((row) => row.id)).toEqual([txId(3, 2), txId(3, 1)])
      expect((await read.latestTxs(db, { limit: 2, offset: 3 })).map((row) => row.id)).toEqual([txId(1, 1), txId(1, 0)])
      expect((await read.blockTxs(db, 3, { limit: 10, fromIndex: 1 })).map((row) => row.index)).toEqual([1, 2])
      expect((await read.blockTxs(db, 3, { limit: 1, offset: 1 })).map((row) => row.index)).toEqual([1])
      expect((await read.txsByIds(db, [txId(1, 0), txId(3, 0), txId(1, 0), txId(9, 0)])).map((row) => row.id)).toEqual([txId(3, 0), txId(1, 0)])
      expect(await read.txsByIds(db, [])).toEqual([])
      expect(await read.txCount(db)).toBe(5)
    })

    test('hashes and refs for a page of ids: one lookup, repeated ids once, unknown ids absent', async () => {
      const hashes = await read.txHashes(db, [txId(3, 2), txId(1, 1), txId(3, 2), txId(2, 0)])
      expect([...hashes].map(([id, bytes]) => [id, hex(bytes)]).sort()).toEqual(
        [
          [txId(1, 1), hash(0xf0, 16 + 1)],
          [txId(3, 2), hash(0xf0, 3 * 16 + 2)],
        ].sort(),
      )
      expect((await read.txHashes(db, [])).size).toBe(0)
      const refs = await read.txRefs(db, [txId(1, 1)])
      expect([...refs].map(([id, ref]) => [id, { ...ref, hash: hex(ref.hash) }])).toEqual([[txId(1, 1), { hash: hash(0xf0, 16 + 1), blockNumber: 1, timestamp: 1002 }]])
    })

    test("a transaction's logs and call tree", async () => {
      const logs = await read.txLogs(db, txId(1, 1))
      expect(logs.map((log) => [log.logIndex, hex(log.address), hex(log.topic0), log.topic1, hex(log.data)])).toEqual([
        [0, B, TOPIC, null, '0x00'],
        [1, B, TOPIC, null, '0x01'],
      ])
      expect(await read.txLogs(db, txId(3, 0))).toEqual([])
      expect((await read.txTrace(db, txId(3, 2)))?.calls).toEqual([created])
      expect(await read.txTrace(db, txId(9, 0))).toBeNull()
    })

    test('by address: sent, received, what a creation made', async () => {
      expect(await read.txIdsSentBy(db, blob(A), 10)).toEqual([txId(3, 2), txId(1, 1), txId(1, 0)])
      expect(await read.txIdsSentBy(db, blob(A), 1)).toEqual([txId(3, 2)])
      expect(await read.txIdsReceivedBy(db, blob(A), 10)).toEqual([txId(3, 1), txId(3, 0)])
      expect(hex(await read.createdContract(db, txId(1, 0)))).toBe(MADE)
      expect(await read.createdContract(db, txId(1, 1))).toBeNull()
    })

    test("a sender's transactions either side of one: one step each way, across blocks, none past the ends", async () => {
      const step = async (id: number) => {
        const { previous, next } = await read.senderNeighbours(db, blob(A), id)
        return [previous && [hex(previous.hash), previous.nonce], next && [hex(next.hash), next.nonce]]
      }
      const hashOf = async (id: number) => hex((await read.txById(db, id))!.hash)
      expect(await step(txId(1, 0))).toEqual([null, [await hashOf(txId(1, 1)), 1]])
      expect(await step(txId(1, 1))).toEqual([
        [await hashOf(txId(1, 0)), 0],
        [await hashOf(txId(3, 2)), 2],
      ])
      expect(await step(txId(3, 2))).toEqual([[await hashOf(txId(1, 1)), 1], null])
      // Another sender's transactions in between are not its neighbours.
      expect(await read.senderNeighbours(db, blob(B), txId(3, 1))).toEqual({ previous: expect.objectContaining({ nonce: 0 }), next: null })
    })

    test("the calls one address sent another with a selector, oldest first, with their status and block's time", async () => {
      const calls = await read.callsFromTo(db, blob(A), blob(B), blob('0xa9059cbb'))
      expect(calls.map((call) => [call.id, hex(call.input), call.status, call.timestamp])).toEqual([[txId(1, 1), CALL, 1, 1002]])
      // The reverted one from B to A is handed over with its status.
      expect((await read.callsFromTo(db, blob(B), blob(A), blob('0xa9059cbb'))).map((call) => [call.id, call.status])).toEqual([[txId(3, 0), 0]])
      expect(await read.callsFromTo(db, blob(A), blob(B), blob('0x12345678'))).toEqual([])
    })
  })
})

// What a block stream reads of the spool inside its pass, on the writer's connection.
describe("on the writer's connection", () => {
  let spool: EngineSpool
  beforeAll(async () => {
    spool = await engineSpool('sqlite', 'read-writer')
    await spool.write(SMALL_CHAIN())
  })
  afterAll(() => spool.close())

  test('block headers forward in steps; parties and creations going forward', async () => {
    const db = spool.writer
    expect((await read.blockHeaders(db, 1, 2)).map((row) => [row.number, row.gasUsed])).toEqual([
      [1, 42_000],
      [2, 0],
    ])
    expect((await read.blockHeaders(db, 3, 9)).map((row) => row.number)).toEqual([3])
    const parties = await read.txPartiesOfBlocks(db, 1, 2)
    expect(parties.map((row) => [row.id, hex(row.from), hex(row.to), hex(row.created)])).toEqual([
      [txId(1, 0), A, null, MADE],
      [txId(1, 1), A, B, null],
    ])
    expect((await read.txPartiesOfBlocks(db, 2, 3)).map((row) => row.id)).toEqual([txId(3, 0), txId(3, 1), txId(3, 2)])
    expect(await read.txPartiesOfBlocks(db, 2, 2)).toEqual([])
    // Only the trace that creates something is handed over.
    expect((await read.creationTraces(db, 0, 3)).map((row) => [row.txId, row.trace.calls[0]?.to])).toEqual([[txId(3, 2), INNER]])
    expect(await read.creationTraces(db, 0, 2)).toEqual([])
  })
})

import { afterAll, describe, expect, test } from 'bun:test'
import { getMeta } from '../meta.ts'
import { sqliteWriter } from '../sqlite/engine.ts'
import { SpoolMeter } from '../meter.ts'
import { getCursor, recordGap, storedHash } from '../store.ts'
import { readStreamCursor, runPass } from '../streams.ts'
import { deepestAncestor, DeepReorgError, findAncestor, historyKeptFrom, rollBack, tipMatches } from './reorg.ts'
import { copyBlocks, keptLog, scratchSpool, scriptedNode, scriptedStream, type ScriptedNode } from './scriptedNode.ts'

const nodes: ScriptedNode[] = []
afterAll(() => nodes.forEach((node) => node.close()))

/** A node of `blocks` blocks and a spool holding all of them. */
async function copied(blocks: number, streams = [scriptedStream('rows')]) {
  const node = scriptedNode()
  nodes.push(node)
  node.mine(blocks)
  const { db } = scratchSpool(streams)
  await copyBlocks(db, node, 0, blocks - 1)
  return { node, db, writer: sqliteWriter(db), streams }
}

const depth = { startBlock: 0, maxReorgDepth: 100 }
const failureOf = (call: Promise<unknown>) => call.then(() => null, (error: unknown) => error as Error)

describe('reorganisations', () => {
  test('the walk back finds the newest block the node and the spool agree on, and the rollback drops the rest with the streams', async () => {
    const { node, db, writer, streams } = await copied(50)
    await runPass(writer, streams[0]!, await getCursor(writer))
    expect(await tipMatches(writer, node.rpc, 49)).toBe(true)
    node.fork(45, 6)
    expect(await tipMatches(writer, node.rpc, 49)).toBe(false)
    // Past one batch of the walk (32 blocks) as well: from 49 the ancestor is 44.
    expect(await findAncestor(writer, node.rpc, 49, depth)).toBe(44)

    const { lines, log } = keptLog()
    const meter = new SpoolMeter()
    expect(await rollBack(writer, 44, { streams, meter, log })).toBe(true)
    expect(await getCursor(writer)).toBe(44)
    expect(await storedHash(writer, 45)).toBeNull()
    expect((await readStreamCursor(writer, 'rows')).blockNumber).toBeLessThanOrEqual(44)
    expect(db.query('SELECT max(block_number) AS top FROM rows_rows').get()).toEqual({ top: 44 })
    expect(lines).toEqual([{ level: 'warn', fields: { from: 49, to: 44, dropped: 5 }, message: 'chain reorganised: rolled back to the common ancestor' }])
    expect(meter.drain()?.reorganisations).toEqual([5])
    // Nothing above the ancestor: nothing to drop, nothing said.
    expect(await rollBack(writer, 44, { streams, meter, log })).toBe(false)
    expect(lines).toHaveLength(1)
  })

  test('a chain that got shorter is walked back from its head, its missing blocks not taken for lost history', async () => {
    const { node, writer } = await copied(20)
    node.fork(15, 2)
    expect(node.head()).toBe(16)
    expect(await findAncestor(writer, node.rpc, 19, depth)).toBe(14)
  })

  test('a fork below the start block rolls back to before it', async () => {
    const { node, writer } = await copied(10)
    node.fork(0, 12)
    expect(await findAncestor(writer, node.rpc, 9, depth)).toBe(-1)
  })

  test('a fork deeper than maxReorgDepth stops the spool', async () => {
    const { node, writer } = await copied(30)
    node.fork(5, 30)
    const error = await failureOf(findAncestor(writer, node.rpc, 29, { startBlock: 0, maxReorgDepth: 10 }))
    expect(error).toBeInstanceOf(DeepReorgError)
    expect(error!.message).toBe('the chain reorganised more than 10 blocks below block 29')
  })

  test('a fork below a block the node no longer has, or below a recorded hole, cannot be found', async () => {
    const { node, writer } = await copied(30)
    node.fork(20, 10)
    node.forget(0, 22)
    const lost = await failureOf(findAncestor(writer, node.rpc, 29, depth))
    expect(lost).toBeInstanceOf(DeepReorgError)
    expect(lost!.message).toBe('the chain reorganised below block 23, and the node no longer has block 22: the fork cannot be found')

    const { node: other, db: holed, writer: holedWriter } = await copied(10)
    other.mine(10)
    await recordGap(holedWriter, 10, 14)
    await copyBlocks(holed, other, 15, 19)
    other.fork(12, 10)
    const gap = await failureOf(findAncestor(holedWriter, other.rpc, 19, depth))
    expect(gap!.message).toBe('the chain reorganised below block 15, which follows a history gap the spool recorded (blocks 10 to 14): the fork cannot be found')
  })

  test('the walk never goes below the first block whose history the streams kept', async () => {
    const { node, writer } = await copied(60)
    // With the spool at 59 and a depth of 10, the streams keep the history from block 49 on.
    expect(await historyKeptFrom(writer, { startBlock: 0, maxReorgDepth: 10 })).toBe(49)
    expect(await getMeta(writer, 'history_from')).toBe('49')
    // Only ever raised: a deeper setting later does not lower it.
    expect(await historyKeptFrom(writer, { startBlock: 0, maxReorgDepth: 30 })).toBe(29)
    expect(await getMeta(writer, 'history_from')).toBe('49')
    node.fork(40, 25)
    const error = await failureOf(findAncestor(writer, node.rpc, 59, { startBlock: 0, maxReorgDepth: 30 }))
    expect(error!.message).toStartWith('the chain reorganised below block 49, the oldest whose history the derived streams kept')
  })

  test("the reset point's parent bounds the walk whatever maxReorgDepth says", async () => {
    const { node, writer } = await copied(40)
    expect(await deepestAncestor(writer, { startBlock: 0, maxReorgDepth: 5 })).toBe(34)
    expect(await deepestAncestor(writer, { startBlock: 0, maxReorgDepth: 5, resetBlock: 10 })).toBe(9)
    node.fork(11, 40)
    expect(await findAncestor(writer, node.rpc, 39, { startBlock: 0, maxReorgDepth: 5, resetBlock: 10 })).toBe(10)
  })
})

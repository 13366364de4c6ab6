import { afterAll, expect, test } from 'bun:test'
import { devAccounts } from '../../src/devnet/accounts.ts'
import { createExplorerApp } from '../../src/explorer/app.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { startNode } from '../helpers/devChain.ts'
import { serveOnFreePort, testContext } from '../helpers/service.ts'
import { waitFor } from '../helpers/wait.ts'

const cleanup: Array<() => unknown> = []
afterAll(async () => {
  for (const step of cleanup.reverse()) await step()
})

test('blocks the node had lost, recorded as a hole: the explorer says a block there is in a history gap, and its stats count the hole', async () => {
  // anvil keeps the transactions of its last 5 blocks only.
  const node = await startNode({ args: ['--transaction-block-keeper', '5'] })
  cleanup.push(() => node.stop())
  for (let index = 0; index < 10; index++) await node.send([{ from: devAccounts.carol.address, to: devAccounts.bob.address, value: 1n }])
  const head = await node.head()
  const context = testContext(`[chain]\nrpc = "${node.rpcUrl}"\nws = "${node.wsUrl}"\n[spool]\npollMs = 100\nonHistoryGap = "record"\n`)
  const spool = await startSpool(context.config, spoolWiring(context.config), context.log, { fresh: true })
  cleanup.push(() => spool.stop())
  const explorer = serveOnFreePort(createExplorerApp(context, spool), 'explorer')
  cleanup.push(() => explorer.stop())
  await waitFor(() => spool.health().spoolHeadBlock === head, 'the spool past the hole')
  const hole = spool.health().historyGaps[0]!
  expect(hole).toEqual({ from: 1, to: head - 5 })

  const inside = await fetch(`${explorer.url}/api/block/${hole.from + 1}`)
  expect(inside.status).toBe(404)
  expect(inside.headers.get('cache-control')).toBe('no-store')
  expect(((await inside.json()) as { error: string }).error).toBe(
    `block ${hole.from + 1} is in a history gap: the node no longer had blocks ${hole.from} to ${hole.to} when the spool reached them`,
  )
  const after = await fetch(`${explorer.url}/api/block/${hole.to + 1}`)
  expect(after.status).toBe(200)
  const unknown = await fetch(`${explorer.url}/api/block/${head + 100}`)
  expect(((await unknown.json()) as { error: string }).error).toBe('unknown block')

  const stats = await waitFor(async () => {
    const body = (await (await fetch(`${explorer.url}/api/stats`)).json()) as Record<string, unknown>
    return body.recordedGaps === 1 ? body : null
  }, 'the stats to count the hole')
  expect(stats.recordedGapBlocks).toBe(hole.to - hole.from + 1)
  expect(stats.lastRecordedGap).toEqual(hole)
})

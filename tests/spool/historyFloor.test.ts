import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseConfig } from '../../src/config/load.ts'
import { tallyStream } from '../../src/explorer/tallyStream.ts'
import { getMeta } from '../../src/spool/meta.ts'
import { openSpool } from '../../src/spool/sqlite/db.ts'
import { sqliteWriter } from '../../src/spool/sqlite/engine.ts'
import { DeepReorgError, Follower } from '../../src/spool/follower.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { waitFor } from '../helpers/wait.ts'
import { deposits, followerOptions } from './helpers.ts'

// The streams keep the history of versioned rows only as deep as a reorganisation can reach.
// A spool derived while spool.maxReorgDepth was small holds no history below that depth, and a
// later run with a larger depth must refuse a reorganisation below it rather than roll the
// derived rows back to a state they never had.

const tally = tallyStream(parseConfig('', null))
let chain: DevChain

beforeAll(async () => {
  chain = await startDevChain()
})
afterAll(async () => {
  await chain?.stop()
})

test('a reorganisation below the history the streams kept stops the spool, whatever maxReorgDepth says now', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'stack-history-floor-')), 'spool.db')
  const db = openSpool(path, tally.migrations)
  const writer = sqliteWriter(db)
  const weth = chain.manifest.contracts.WETH9
  const snapshot = await chain.test.snapshot()
  const base = await chain.head()
  for (let count = 0; count < 6; count++) await deposits(chain.rpcUrl, weth, 1)
  const head = await chain.head()
  expect(head).toBeGreaterThanOrEqual(base + 6)

  // First run: reorganisations of at most 2 blocks; the tally keeps history from head - 2 on.
  let health: SpoolHealth | undefined
  const first = new AbortController()
  const shallow = new Follower(writer, followerOptions(chain.rpcUrl, { path, streams: [tally], maxReorgDepth: 2, onHealth: (next) => (health = next) }))
  const running = shallow.run(first.signal)
  await waitFor(() => health?.spoolHeadBlock === head && health.streams.tally?.cursorBlock === head, 'the spool and the tally at the head')
  first.abort()
  await running
  expect(Number(await getMeta(writer, 'history_from'))).toBe(head - 2)
  const historyBlocks = db.query<{ block: number }, []>('SELECT DISTINCT block FROM explorer_totals_history ORDER BY block').all()
  expect(historyBlocks.every(({ block }) => block >= head - 2)).toBe(true)

  // The chain goes back below that, and a second run would follow 100 blocks.
  await chain.test.revert({ id: snapshot })
  await deposits(chain.rpcUrl, weth, 1)
  const deep = new Follower(writer, followerOptions(chain.rpcUrl, { path, streams: [tally], maxReorgDepth: 100, onHealth: () => {} }))
  const stopped = await deep.run(new AbortController().signal).then(
    () => null,
    (error: unknown) => error,
  )
  expect(stopped).toBeInstanceOf(DeepReorgError)
  expect((stopped as Error).message).toContain(`below block ${head - 2}, the oldest whose history the derived streams kept`)
  // Nothing was rolled back.
  expect(db.query<{ n: number }, []>('SELECT max(number) AS n FROM blocks').get()!.n).toBe(head)
  db.close()
})

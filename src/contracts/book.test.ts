import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createChain } from '../chain/client.ts'
import { NODE_DOWN_FOR_MS } from '../chain/outage.ts'
import { openSpool } from '../spool/sqlite/db.ts'
import { sqliteDb } from '../spool/sqlite/engine.ts'
import { sleep } from '../time/sleep.ts'
import { createContractBook } from './book.ts'

// A node that takes each request and never answers (a host gone behind a live port): it lets go
// only when the client gives up.
const asked: string[] = []
const hanging = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: async (request) => {
    asked.push(((await request.json()) as { method: string }).method)
    await sleep(20_000, request.signal)
    return new Response('too late')
  },
})
const folder = mkdtempSync(join(tmpdir(), 'stack-book-'))
const reader = sqliteDb(openSpool(join(folder, 'spool.sqlite')))
afterAll(async () => {
  await hanging.stop(true)
  rmSync(folder, { recursive: true, force: true })
})

test('a node that hangs holds one lookup to its timeout; the lookups of the next two seconds skip it, then it is asked again', async () => {
  let now = 1000
  const chain = createChain({ rpcUrl: `http://127.0.0.1:${hanging.port}`, wsUrl: 'ws://127.0.0.1:9', chainId: 78270, timeoutMs: 300 })
  const book = createContractBook(reader, { chain, clock: () => now })
  const [first, second, third] = ['0x5FbDB2315678afecb367f032d93F642f64180aa3', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0']
  expect(await book.lookup(first!)).toBeNull()
  expect(asked).toEqual(['eth_getCode'])
  // Nothing is known of the node for a moment: no lookup or proxy read asks it, each answers at once.
  expect(await book.lookup(second!)).toBeNull()
  expect(await book.proxyOf(third!)).toBeNull()
  now += NODE_DOWN_FOR_MS - 1
  expect(await book.lookup(second!)).toBeNull()
  expect(asked).toEqual(['eth_getCode'])
  now += 1
  expect(await book.lookup(second!)).toBeNull()
  expect(asked).toEqual(['eth_getCode', 'eth_getCode'])
})

import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openReader } from '../../src/spool/sqlite/db.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { linesOf } from '../helpers/lines.ts'
import { deposits, expectMirror } from './helpers.ts'

let chain: DevChain
afterAll(() => chain?.stop())

/** Starts the spool in a child process and resolves with it once its head reaches `until` (then kills it, -9). */
async function runUntil(rpcUrl: string, dir: string, until: number, kill: boolean): Promise<number> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures/spoolProcess.ts'), rpcUrl, dir], { stdout: 'pipe', stderr: 'inherit' })
  let head = -1
  for await (const line of linesOf(child.stdout)) {
    head = JSON.parse(line).head ?? head
    if (head >= until) break
  }
  if (kill) child.kill('SIGKILL')
  else child.kill('SIGTERM')
  await child.exited
  return head
}

test('kill -9 in the middle of the backfill, twice, then a restart: no gap and no duplicate', async () => {
  chain = await startDevChain()
  const { anvil } = chain
  await deposits(anvil.rpcUrl, chain.manifest.contracts.WETH9, 400)
  const head = await chain.head()
  const dir = mkdtempSync(join(tmpdir(), 'stack-crash-'))

  const firstKill = await runUntil(anvil.rpcUrl, dir, 120, true)
  expect(firstKill).toBeLessThan(head)
  const secondKill = await runUntil(anvil.rpcUrl, dir, 300, true)
  expect(secondKill).toBeGreaterThanOrEqual(300)
  expect(secondKill).toBeLessThan(head)
  // The last deposit was mined before `head` was read (deposits() waits for its receipt), and
  // nothing has been sent since: a last run catches up with the node's head.
  const final = await chain.head()
  expect(final).toBe(head)
  expect(await runUntil(anvil.rpcUrl, dir, final, false)).toBe(final)

  const reader = openReader(join(dir, 'spool.db'))
  try {
    expect(await expectMirror(reader, anvil.rpcUrl, final)).toEqual([])
  } finally {
    reader.close()
  }
})

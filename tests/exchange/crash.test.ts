import { afterAll, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openReader } from '../../src/spool/sqlite/db.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { expectMirror, spoolConfig } from '../spool/helpers.ts'
import { runFollower } from './follower.ts'
import { dumpExchange } from './helpers.ts'

let chain: DevChain
afterAll(() => chain?.stop())

type Line = { inPass?: string; logs?: number; head?: number | null; v2?: number | null; cl?: number | null }

/** Runs the fixture until `until` says so for one of its lines; then kills it (-9 or TERM). */
async function run(args: string[], until: (line: Line) => boolean, signal: 'SIGKILL' | 'SIGTERM'): Promise<Line> {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures/indexProcess.ts'), ...args], { stdout: 'pipe', stderr: 'inherit' })
  const decoder = new TextDecoder()
  let buffer = ''
  let seen: Line | null = null
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
  read: for await (const chunk of child.stdout) {
    buffer += decoder.decode(chunk, { stream: true })
    const lines = buffer.split('\n')
    buffer = lines.pop()!
    for (const text of lines) {
      const line = JSON.parse(text) as Line
      if (until(line)) {
        seen = line
        break read
      }
    }
  }
  clearTimeout(timer)
  child.kill(signal)
  await child.exited
  if (!seen) throw new Error(`the index process ended before it got there (exit ${child.exitCode})`)
  return seen
}

test('kill -9 inside a v2 pass, then inside a cl pass, then a restart: the same tables as an uninterrupted run', async () => {
  chain = await startDevChain()
  const head = await chain.head()
  const dir = mkdtempSync(join(tmpdir(), 'stack-exchange-crash-'))

  expect(await run([chain.rpcUrl, dir, 'v2', '4'], (line) => line.inPass !== undefined, 'SIGKILL')).toMatchObject({ inPass: 'v2', logs: 2 })
  expect(await run([chain.rpcUrl, dir, 'cl', '3'], (line) => line.inPass !== undefined, 'SIGKILL')).toMatchObject({ inPass: 'cl', logs: 2 })
  const done = await run([chain.rpcUrl, dir], (line) => line.head === head && line.v2 === head && line.cl === head, 'SIGTERM')
  expect(done).toEqual({ head, v2: head, cl: head })

  const crashed = openReader(join(dir, 'spool.db'))
  const uninterrupted = runFollower(spoolConfig(chain.rpcUrl, null), join(mkdtempSync(join(tmpdir(), 'stack-exchange-whole-')), 'spool.db'))
  try {
    expect(await uninterrupted.caughtUp()).toBe(head)
    expect(await expectMirror(crashed, chain.rpcUrl, head)).toEqual([])
    const tables = dumpExchange(crashed)
    // The seed's 6 swaps on its own pairs and 5 on the pairs of launched tokens.
    expect(tables.v2_swaps!.length).toBe(11)
    expect(tables.cl_events!.length).toBe(11)
    expect(tables).toEqual(dumpExchange(uninterrupted.reader))
  } finally {
    crashed.close()
    await uninterrupted.stop()
  }
})

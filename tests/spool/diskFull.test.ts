import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../src/log.ts'
import { openReader } from '../../src/spool/sqlite/db.ts'
import type { SpoolHealth } from '../../src/spool/health.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { linesOf } from '../helpers/lines.ts'
import { waitFor } from '../helpers/wait.ts'
import { deposits, expectMirror, spoolConfig } from './helpers.ts'

// A real full disk without root: the spool runs in a child under a file-size limit
// (RLIMIT_FSIZE), so that its writes past the limit fail as they would on a full disk (EFBIG,
// which SQLite reports as SQLITE_IOERR_WRITE). SIGXFSZ is ignored (a shell's trap, kept across
// exec), as a full disk sends no signal. Only the soft limit is set, so `prlimit --pid` can
// raise it again on the running child: the disk "has room again".

let chain: DevChain
afterAll(() => chain?.stop())

type Watched = Pick<SpoolHealth, 'spoolHeadBlock' | 'nodeReachable' | 'storageError' | 'lastError'> & { streamErrors: Array<string | null> }
type LogLine = { level: number; msg: string; code?: string }

/** The spool in a child under a file-size limit of `limitBytes`, repeating lasting failures every second. */
function spoolUnderLimit(rpcUrl: string, dir: string, limitBytes: number) {
  const fixture = join(import.meta.dir, 'fixtures/spoolWatchProcess.ts')
  const command = `trap "" XFSZ; exec prlimit --fsize=${limitBytes}:unlimited "$0" "$@"`
  const child = Bun.spawn(['sh', '-c', command, process.execPath, fixture, rpcUrl, dir, '1000'], { stdout: 'pipe', stderr: 'pipe' })
  const healths: Watched[] = []
  const logs: LogLine[] = []
  const reading = (async () => {
    for await (const line of linesOf(child.stdout)) {
      const parsed = JSON.parse(line) as { health?: Watched } & LogLine
      if (parsed.health) healths.push(parsed.health)
      else logs.push(parsed)
    }
  })()
  const stderr = new Response(child.stderr).text()
  return {
    healths,
    logs,
    latest: () => healths.at(-1),
    /** Lifts the limit on the running child, as freeing space on the disk would. */
    makeRoom: () => Bun.spawnSync(['prlimit', `--pid=${child.pid}`, '--fsize=unlimited:unlimited']).exitCode,
    stop: async () => {
      child.kill('SIGTERM')
      const code = await child.exited
      await reading
      return { code, stderr: await stderr }
    },
  }
}

test('a disk that fills while running: the health says so, the log says it again and again, and the spool resumes once there is room', async () => {
  chain = await startDevChain()
  const { anvil } = chain
  const headOf = chain.head

  // A spool that holds the chain so far, stopped (its log folded into the file).
  const dir = mkdtempSync(join(tmpdir(), 'stack-disk-full-'))
  const config = spoolConfig(anvil.rpcUrl, null, '', dir)
  const first = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
  const start = await headOf()
  // The streams too: a derivation left to do would write at the next start, before the child
  // has asked the node anything (so before it knows the node is reachable).
  await waitFor(() => {
    const health = first.health()
    return health.spoolHeadBlock === start && Object.values(health.streams).every((stream) => stream.cursorBlock === start)
  }, 'the first backfill and its derivation')
  await first.stop()
  const path = join(dir, 'spool.db')

  // Room for 256 KiB of writes at most (the limit is on every file's size): the stop folded the
  // log into the file, which is not written again before a checkpoint 64 MiB of log away, so the
  // new log fills up to the limit, then no more.
  expect(existsSync(`${path}-wal`) ? statSync(`${path}-wal`).size : 0).toBe(0)
  const spool = spoolUnderLimit(anvil.rpcUrl, dir, 256 * 1024)
  try {
    await waitFor(() => spool.latest()?.spoolHeadBlock === start && spool.latest()?.nodeReachable, 'the child to follow the node')
    await deposits(anvil.rpcUrl, chain.manifest.contracts.WETH9, 150)

    const failing = await waitFor(() => spool.healths.find((health) => health.storageError !== null), 'the storage error in the health')
    expect(failing.storageError).toStartWith(`the spool cannot write ${path}: `)
    expect(failing.storageError).toContain('SQLITE_IOERR_WRITE')
    const said = () => spool.logs.filter((line) => line.level === 50 && line.msg.startsWith(`the spool cannot write ${path}`))
    await waitFor(() => said().length >= 2, 'the error line to be said again')
    expect(said()[0]!.msg).toContain('; retrying; said again every 1 s while it lasts')
    // The node did nothing wrong, and its reachability never flickered.
    expect(spool.healths.filter((health) => health.storageError !== null).every((health) => health.nodeReachable)).toBe(true)
    expect(spool.logs.some((line) => line.msg === 'node unreachable; retrying' || line.msg === 'spool step failed; retrying')).toBe(false)
    expect(spool.latest()!.spoolHeadBlock).toBeLessThan(await headOf())

    expect(spool.makeRoom()).toBe(0)
    const head = await headOf()
    await waitFor(() => spool.latest()?.storageError === null && spool.latest()?.spoolHeadBlock === head, 'the spool to resume', 30_000)
    expect(spool.latest()).toMatchObject({ nodeReachable: true, lastError: null })
    await waitFor(() => spool.latest()?.streamErrors.every((error) => error === null), 'the streams to pass again')
    // Log lines reach standard output on their own schedule, apart from the health lines.
    const writesAgain = () => spool.logs.filter((line) => line.msg === 'the spool can write again')
    await waitFor(() => writesAgain().length > 0, 'the log to say the spool writes again')
    expect(writesAgain()).toHaveLength(1)
  } finally {
    const { code, stderr } = await spool.stop()
    expect(stderr).toBe('')
    expect(code).toBe(0)
  }
  const reader = openReader(path)
  try {
    expect(await expectMirror(reader, anvil.rpcUrl, await headOf())).toEqual([])
  } finally {
    reader.close()
  }
}, 120_000)

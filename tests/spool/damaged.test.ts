import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, statSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { silentLogger } from '../../src/log.ts'
import { startSpool } from '../../src/spool/spool.ts'
import { spoolWiring } from '../../src/streams.ts'
import { startDevChain, type DevChain } from '../helpers/devChain.ts'
import { configDir, fromSource, runOnce } from '../helpers/stack.ts'
import { waitFor } from '../helpers/wait.ts'
import { spoolConfig } from './helpers.ts'

// `stack start` on a spool file it cannot use says what is wrong and what to do in one line on
// stderr, and exits 1 before any port opens: no stack trace, no Bun "error:" banner.

let chain: DevChain
/** A spool the real follower wrote from a real chain, closed: the source of the damaged copies. */
let realSpool: string
beforeAll(async () => {
  chain = await startDevChain()
  const config = spoolConfig(chain.rpcUrl, null)
  const spool = await startSpool(config, spoolWiring(config), silentLogger, { fresh: true })
  const head = await chain.head()
  await waitFor(() => spool.health().spoolHeadBlock === head, 'the spool at the head')
  await spool.stop()
  realSpool = join(config.dataDir, 'spool.db')
}, 60_000)
afterAll(() => chain?.stop())

/** A stack.toml against the test's node, and its data folder (where `stack start` keeps the spool). */
function stackFolder() {
  const { dir, file } = configDir(`[chain]\nrpc = "${chain.rpcUrl}"\nws = "${chain.wsUrl}"\n`)
  const data = join(dir, 'data')
  mkdirSync(data)
  return { file, data, spool: join(data, 'spool.db') }
}

/** Runs `stack start` and checks the refusal: exit 1, one line on stderr, no port opened. */
async function expectRefusal(file: string): Promise<string> {
  const { code, stdout, stderr } = await runOnce(fromSource, ['start', '--config', file])
  expect(stdout).not.toContain('"listening"')
  expect(stderr).not.toMatch(/^\s+at |error:/m)
  expect(stderr.endsWith('\n')).toBe(true)
  expect(stderr.trimEnd().split('\n')).toHaveLength(1)
  expect(code).toBe(1)
  return stderr.trimEnd()
}

describe('a damaged spool file', () => {
  test('cut to half its size: damaged, move it away', async () => {
    const { file, spool } = stackFolder()
    copyFileSync(realSpool, spool)
    truncateSync(spool, Math.floor(statSync(spool).size / 2))
    expect(await expectRefusal(file)).toBe(
      `stack: the spool ${spool} cannot be used: it is damaged (SQLite: database disk image is malformed); ` +
        `move it away (mv ${spool} ${spool}.damaged) and start again for a fresh spool`,
    )
  })

  test('random bytes: not a SQLite database, move it away', async () => {
    const { file, spool } = stackFolder()
    writeFileSync(spool, crypto.getRandomValues(new Uint8Array(64 * 1024)))
    expect(await expectRefusal(file)).toBe(
      `stack: the spool ${spool} cannot be used: it is not a SQLite database; move it away (mv ${spool} ${spool}.damaged) and start again for a fresh spool`,
    )
  })
})

// Root writes through chmod 0444 and 0555, so as root the file or the folder is made immutable
// with chattr +i, which binds root too. Where neither is possible (root on a file system without
// the immutable flag) there is no honest read-only file to test with, and these tests are skipped.
const asRoot = process.getuid?.() === 0
const readOnlyPossible = !asRoot || immutableFlagWorks()

function immutableFlagWorks(): boolean {
  if (!Bun.which('chattr')) return false
  const probe = join(mkdtempSync(join(tmpdir(), 'stack-chattr-')), 'probe')
  writeFileSync(probe, '')
  const works = Bun.spawnSync(['chattr', '+i', probe], { stderr: 'ignore' }).exitCode === 0
  if (works) Bun.spawnSync(['chattr', '-i', probe])
  return works
}

/** Makes a file or folder read-only for this user, for real; gives back the undo. */
function makeReadOnly(path: string, isFolder: boolean): () => void {
  if (asRoot) {
    Bun.spawnSync(['chattr', '+i', path])
    return () => Bun.spawnSync(['chattr', '-i', path])
  }
  chmodSync(path, isFolder ? 0o555 : 0o444)
  return () => chmodSync(path, isFolder ? 0o755 : 0o644)
}

describe.skipIf(!readOnlyPossible)('a spool that cannot be written', () => {
  test('a read-only file: fix the permissions', async () => {
    const { file, spool } = stackFolder()
    copyFileSync(realSpool, spool)
    const undo = makeReadOnly(spool, false)
    try {
      expect(await expectRefusal(file)).toBe(
        `stack: the spool ${spool} cannot be used: it is read-only (the file or its folder); make the file and its folder writable for the user running stack`,
      )
    } finally {
      undo()
    }
  })

  test('a read-only folder: SQLite cannot create the spool or its WAL beside it', async () => {
    const { file, data, spool } = stackFolder()
    copyFileSync(realSpool, spool)
    const undo = makeReadOnly(data, true)
    try {
      // SQLite says SQLITE_READONLY_DIRECTORY for a folder closed by its mode bits, and
      // SQLITE_CANTOPEN for an immutable one (it cannot create spool.db-wal at all).
      const line = await expectRefusal(file)
      expect(line).toStartWith(`stack: the spool ${spool} cannot be used: `)
      expect(line).toMatch(/: (its folder is read-only; make the file and its folder writable|it cannot be opened; check that its folder exists and that the user running stack may write there)/)
    } finally {
      undo()
    }
  })
})

test('a disk with no room at start (a file-size limit of zero bytes): an I/O error, free some space', async () => {
  const { file, spool } = stackFolder()
  copyFileSync(realSpool, spool)
  // As in diskFull.test.ts: writes past the limit fail for real (EFBIG), SIGXFSZ is ignored.
  const command = `trap "" XFSZ; exec prlimit --fsize=0 "$0" "$@"`
  const { code, stdout, stderr } = await runOnce(['sh', '-c', command, ...fromSource], ['start', '--config', file])
  expect(stdout).not.toContain('"listening"')
  expect(stderr).toMatch(new RegExp(`^stack: the spool ${spool} cannot be used: a disk read or write failed \\(SQLITE_IOERR_\\w+: .*; free some space on its disk, or check the disk\n$`))
  expect(code).toBe(1)
})

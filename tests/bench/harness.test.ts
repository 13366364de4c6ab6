import { afterAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../helpers/stack.ts'
import { linesOf } from '../helpers/lines.ts'

// Every bench cleans up after itself, also when interrupted: a bench's folders and children go
// through the harness, which ends them at exit, on Ctrl-C and on SIGTERM alike.

const work = mkdtempSync(join(tmpdir(), 'stack-test-bench-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A bench in miniature: a scratch folder, an owned child, then `ending` ("exit", or a wait for a signal). */
const script = join(work, 'bench.ts')
writeFileSync(
  script,
  `import { own, scratchDir } from ${JSON.stringify(join(ROOT, 'bench/harness.ts'))}
const dir = scratchDir('harness-test')
const child = own(Bun.spawn(['sleep', '60']))
console.log(JSON.stringify({ dir, child: child.pid }))
if (process.argv[2] === 'exit') process.exit(0)
await Bun.sleep(60_000)
`,
)

const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

async function run(ending: 'exit' | 'SIGINT' | 'SIGTERM') {
  const bench = Bun.spawn([process.execPath, script, ending], { stdout: 'pipe', stderr: 'inherit' })
  const { value } = await linesOf(bench.stdout).next()
  const made = JSON.parse(value as string) as { dir: string; child: number }
  if (ending !== 'exit') {
    expect(existsSync(made.dir)).toBe(true)
    bench.kill(ending)
  }
  const code = await bench.exited
  return { ...made, code }
}

describe('the bench harness', () => {
  for (const ending of ['exit', 'SIGINT', 'SIGTERM'] as const) {
    test(`removes the scratch folders and ends the children: ${ending}`, async () => {
      const { dir, child, code } = await run(ending)
      expect(code).toBe({ exit: 0, SIGINT: 130, SIGTERM: 143 }[ending])
      expect(existsSync(dir)).toBe(false)
      // SIGKILL at the exit: gone at once, though reaped by no one here.
      expect(alive(child) && !readFileSync(`/proc/${child}/stat`, 'utf8').includes(') Z ')).toBe(false)
    })
  }

  test('no bench makes a temp folder or starts a child except through the harness', () => {
    const dir = join(ROOT, 'bench')
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts') && name !== 'harness.ts')) {
      const text = readFileSync(join(dir, file), 'utf8')
      expect([file, /mkdtemp|tmpdir\(/.test(text)]).toEqual([file, false])
      // Each long-lived child is owned (Bun.spawnSync waits for its child itself).
      for (const spawn of text.match(/[\w.]*\(?\s*Bun\.spawn\(/g) ?? []) expect([file, spawn.replace(/\s/g, '')]).toEqual([file, 'own(Bun.spawn('])
    }
  })
})

import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'

const REGISTRY = join(import.meta.dir, '../../registry')

/** Runs a command in the registry folder and returns its exit code and output. */
async function run(argv: string[]) {
  const child = Bun.spawn(argv, { cwd: REGISTRY, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited])
  return { code, output: `${stdout}${stderr}` }
}

// The repository's own test command, as contributors run it: it needs nothing installed.
describe('the registry test command', () => {
  test('`npm test` passes on Node.js', async () => {
    const { code, output } = await run(['npm', 'test'])
    expect(output).toContain('OK: no problems')
    expect(code).toBe(0)
  }, 120_000)

  test('`bun run --bun test` passes on Bun', async () => {
    const { code, output } = await run([process.execPath, 'run', '--bun', 'test'])
    expect(output).toContain('OK: no problems')
    expect(code).toBe(0)
  }, 120_000)

  test('the validator runs directly on Bun', async () => {
    const { code, output } = await run([process.execPath, 'scripts/validate.mjs'])
    expect(output).toContain('checked testnet: tokenlist.json (3 tokens), tags.json (23 tags), 5 logos')
    expect(code).toBe(0)
  })
})

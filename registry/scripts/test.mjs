// @ts-check
/**
 * The repository's test command: validates every list and logo, then runs the validator's own
 * tests, on whichever runtime runs this file (`npm test` on Node.js, `bun run --bun test` on Bun).
 * The test files are listed here rather than given to the runtime as a folder or a glob, because
 * Node.js 20 and 22 read those arguments differently and Windows shells do not expand globs.
 */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const isBun = 'bun' in process.versions

/** Runs a command in the registry folder and exits with its code when it fails. @param {string[]} args */
function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

run(['scripts/validate.mjs'])
const tests = readdirSync(`${root}/tests`).filter((name) => name.endsWith('.test.mjs')).sort().map((name) => `tests/${name}`)
run(isBun ? ['test', ...tests.map((file) => `./${file}`)] : ['--test', ...tests])

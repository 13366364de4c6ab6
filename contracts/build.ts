// Compiles contracts/*.sol and writes the artifacts the dev chain deploys to contracts/out/.
// They are committed so that `stack dev` (and the compiled binary) never runs the compiler;
// tests/contracts.test.ts fails when they are stale.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileContracts, CONTRACTS_DIR, DEPLOYED } from './compile.ts'

const started = performance.now()
const artifacts = compileContracts()
const out = join(CONTRACTS_DIR, 'out')
mkdirSync(out, { recursive: true })
for (const name of DEPLOYED) {
  const artifact = artifacts[name]
  if (!artifact) throw new Error(`contracts/ has no contract named ${name}`)
  writeFileSync(join(out, `${name}.json`), `${JSON.stringify(artifact, null, 2)}\n`)
  console.log(`${name}: ${(artifact.bytecode.length - 2) / 2} bytes`)
}
console.log(`compiled in ${Math.round(performance.now() - started)} ms`)

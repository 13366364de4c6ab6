import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileContracts, CONTRACTS_DIR, DEPLOYED } from '../contracts/compile.ts'

test('the committed artifacts in contracts/out are what solc makes of contracts/*.sol', () => {
  const fresh = compileContracts()
  for (const name of DEPLOYED) {
    const committed = JSON.parse(readFileSync(join(CONTRACTS_DIR, 'out', `${name}.json`), 'utf8'))
    // When this fails, run `npm run contracts` and commit contracts/out.
    expect(committed.bytecode).toBe(fresh[name]!.bytecode)
    expect(committed.abi).toEqual(fresh[name]!.abi)
    expect(committed.deployedBytecode).toBe(fresh[name]!.deployedBytecode)
    expect(committed.immutableReferences).toEqual(fresh[name]!.immutableReferences)
    expect(committed.compilerVersion).toBe(fresh[name]!.compilerVersion)
  }
})

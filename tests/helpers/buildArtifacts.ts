import { mkdirSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { keccak256, toHex } from 'viem'
import type { compileSolidity } from './solidity.ts'

// Build folders as forge and hardhat write them, from a solc-js compile: what `dev.artifacts` reads.

type Compile = ReturnType<typeof compileSolidity>

/** forge's out/: `<File>.sol/<Name>.json` for every contract, and `build-info/<id>.json` with the input. */
export function writeForgeOut(out: string, { input, output }: Compile, { buildInfo = true } = {}): void {
  const id = keccak256(toHex(JSON.stringify(input))).slice(2, 34)
  for (const [path, byName] of Object.entries(output.contracts as Record<string, Record<string, any>>)) {
    for (const [name, contract] of Object.entries(byName)) {
      const folder = join(out, basename(path))
      mkdirSync(folder, { recursive: true })
      writeFileSync(
        join(folder, `${name}.json`),
        JSON.stringify({
          abi: contract.abi,
          bytecode: { object: `0x${contract.evm.bytecode.object}`, linkReferences: {} },
          deployedBytecode: { object: `0x${contract.evm.deployedBytecode.object}`, linkReferences: {}, immutableReferences: contract.evm.deployedBytecode.immutableReferences ?? {} },
          rawMetadata: contract.metadata,
          metadata: JSON.parse(contract.metadata),
          id: 0,
        }),
      )
    }
  }
  if (buildInfo) {
    mkdirSync(join(out, 'build-info'), { recursive: true })
    writeFileSync(join(out, 'build-info', `${id}.json`), JSON.stringify({ id, source_id_to_path: {}, language: 'Solidity', input, output }))
  }
}

/** hardhat's artifacts/: `<source path>/<Name>.json` and `.dbg.json` naming `build-info/<id>.json`, which has the input and output. */
export function writeHardhatArtifacts(artifacts: string, { input, output }: Compile): void {
  const id = keccak256(toHex(JSON.stringify(input))).slice(2, 34)
  mkdirSync(join(artifacts, 'build-info'), { recursive: true })
  writeFileSync(join(artifacts, 'build-info', `${id}.json`), JSON.stringify({ _format: 'hh-sol-build-info-1', id, solcVersion: '0.8.37', solcLongVersion: '0.8.37+commit.f401782d', input, output }))
  for (const [path, byName] of Object.entries(output.contracts as Record<string, Record<string, any>>)) {
    for (const [name, contract] of Object.entries(byName)) {
      const folder = join(artifacts, path)
      mkdirSync(folder, { recursive: true })
      const depth = path.split('/').length
      writeFileSync(
        join(folder, `${name}.json`),
        JSON.stringify({
          _format: 'hh-sol-artifact-1',
          contractName: name,
          sourceName: path,
          abi: contract.abi,
          bytecode: `0x${contract.evm.bytecode.object}`,
          deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
          linkReferences: contract.evm.bytecode.linkReferences ?? {},
          deployedLinkReferences: contract.evm.deployedBytecode.linkReferences ?? {},
        }),
      )
      writeFileSync(join(folder, `${name}.dbg.json`), JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: `${'../'.repeat(depth)}build-info/${id}.json` }))
    }
  }
}

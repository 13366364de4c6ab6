// Run as a macro (`import { stackErrors } from './stackErrors.ts' with { type: 'macro' }`): when
// Bun reads the file that imports it, from source or while compiling the executable, the custom
// errors of every contract the stack compiles (contracts/out/) and deploys from the Uniswap
// packages become a constant in that file. A contract added to contracts/ brings its errors with
// it; nothing is listed by hand, and nothing is read from disk at run time.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** An `error` item of an ABI, as the compiler writes it. */
export type ErrorItem = { type: 'error'; name: string; inputs: Array<{ name: string; type: string; internalType?: string; components?: unknown[] }> }

const ROOT = join(import.meta.dir, '../..')

/** The folders of artifacts: ours, and the Uniswap packages' (solc 0.5 and 0.7, whose require messages need no table). */
const FOLDERS = [
  'contracts/out',
  'node_modules/@uniswap/v2-core/build',
  'node_modules/@uniswap/v3-core/artifacts/contracts',
  'node_modules/@uniswap/v3-periphery/artifacts/contracts',
]

/** Every distinct `error` item of those artifacts, in file order (the same error in two contracts once). */
export function stackErrors(): ErrorItem[] {
  const found = new Map<string, ErrorItem>()
  const read = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) read(join(path, name))
      return
    }
    if (!path.endsWith('.json')) return
    const abi = (JSON.parse(readFileSync(path, 'utf8')) as { abi?: unknown }).abi
    if (!Array.isArray(abi)) return // a combined output, a debug file: no ABI of one contract
    for (const item of abi as Array<{ type?: string }>) {
      if (item.type !== 'error') continue
      const error = item as ErrorItem
      const key = `${error.name}(${JSON.stringify(error.inputs)})`
      if (!found.has(key)) found.set(key, { type: 'error', name: error.name, inputs: error.inputs })
    }
  }
  for (const folder of FOLDERS) if (existsSync(join(ROOT, folder))) read(join(ROOT, folder))
  return [...found.values()]
}

// Run as a macro (`import { builtInFiles } from './builtInFiles.ts' with { type: 'macro' }`): when
// Bun reads the file that imports it, from source or while compiling the executable, the
// registry's network folders (registry/<network>/: the token list, the tags, the logos) become
// a constant in that file. The binary carries the registry it was built with; from source it is
// this checkout's registry/.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** What a network folder serves: the two files and the logos they reference. */
const SERVED = ['tokenlist.json', 'tags.json', 'logos']

/** Every served file of every network folder, by path inside the registry (`testnet/tags.json`), as base64. */
export function builtInFiles(): Record<string, string> {
  const root = join(import.meta.dir, '../../registry')
  const files: Record<string, string> = {}
  const add = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path).sort()) add(join(path, name))
    else files[relative(root, path).split('\\').join('/')] = readFileSync(path).toString('base64')
  }
  for (const network of readdirSync(root).sort()) {
    const folder = join(root, network)
    if (!statSync(folder).isDirectory()) continue
    for (const name of SERVED) if (existsSync(join(folder, name))) add(join(folder, name))
  }
  return files
}

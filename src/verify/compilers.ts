import { existsSync, readdirSync, statSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import solcPackage from 'solc/package.json' with { type: 'json' }
import { CompilerNotFoundError } from './errors.ts'
import { describeVersion, longVersion, versionMatches, type CompilerVersion } from './version.ts'

/**
 * Where compilers are found without the network, in the order they are tried (docs/verification.md):
 * the configured folder, svm's folders (forge's), hardhat's compiler cache, then the solc-js the
 * executable carries.
 */
export type CompilerPlaces = {
  /** `verify.compilers`, absolute; null when the config names none. */
  folder: string | null
  /** svm's roots, each holding `<version>/solc-<version>`. */
  svm: string[]
  /** hardhat's cache folders, each holding `compilers*` /`<platform>`/ `list.json` and the compilers. */
  hardhat: string[]
}

/** A compiler found: a native solc run with --standard-json, or a soljson run by solc-js (path null: the one bundled). */
export type Compiler = {
  kind: 'native' | 'solcjs'
  path: string | null
  /** Its long version when known before a compile (`v0.8.37+commit.f401782d`), else null. */
  version: string | null
  /** The place it was found in, as the docs name it. */
  source: 'folder' | 'svm' | 'hardhat' | 'bundled'
}

/** How a found compiler is asked its version: a native solc's `--version`, and the bundled solc-js's own answer. */
export type VersionProbes = {
  native: (path: string) => Promise<string | null>
  bundled: () => Promise<string | null>
}

export const BUNDLED_SOLC_VERSION: string = solcPackage.version

/** The places for a user with this home and environment (svm's and hardhat's own rules for where they keep compilers). */
export function compilerPlaces({ folder = null, home = homedir(), env = process.env }: { folder?: string | null; home?: string; env?: Record<string, string | undefined> } = {}): CompilerPlaces {
  const dataHome = env.XDG_DATA_HOME || join(home, '.local', 'share')
  const cacheHome = env.XDG_CACHE_HOME || join(home, '.cache')
  const unique = (paths: string[]) => [...new Set(paths)]
  return {
    folder: folder || null,
    svm: unique([join(home, '.svm'), join(dataHome, 'svm'), join(home, '.local', 'share', 'svm')]),
    hardhat: unique([join(cacheHome, 'hardhat-nodejs'), join(home, '.cache', 'hardhat-nodejs'), join(home, 'Library', 'Caches', 'hardhat-nodejs')]),
  }
}

// hardhat names its platform folders after binaries.soliditylang.org's; only this system's natives can run.
const NATIVE_PLATFORM: Record<string, string> = { linux: 'linux-amd64', darwin: 'macosx-amd64', win32: 'windows-amd64' }

/**
 * The compiler for `version`, from the first place that has it; CompilerNotFoundError names the
 * version and every place looked in. A native binary whose `--version` is another build is passed over.
 */
export async function findCompiler(version: CompilerVersion, places: CompilerPlaces, probes: VersionProbes): Promise<Compiler> {
  const looked: string[] = []
  const candidates: Array<() => Promise<Compiler | null>> = []

  if (places.folder) {
    const folder = places.folder
    looked.push(`the configured folder ${folder}`)
    candidates.push(() => firstOf([svmLayout(folder, version), ...scanFolder(folder, version, true)], 'folder', version, probes))
  }
  for (const root of places.svm) {
    const path = join(root, version.short, `solc-${version.short}`)
    looked.push(path)
    candidates.push(() => firstOf([svmLayout(root, version)], 'svm', version, probes))
  }
  for (const root of places.hardhat) {
    const folders = hardhatFolders(root)
    looked.push(folders.length > 0 ? folders.join(', ') : `${join(root, 'compilers*')}`)
    candidates.push(() => firstOf(folders.flatMap((dir) => scanFolder(dir, version, !dir.endsWith('/wasm'))), 'hardhat', version, probes))
  }
  looked.push(`the bundled solc-js ${BUNDLED_SOLC_VERSION}`)
  candidates.push(async () => {
    if (version.short !== BUNDLED_SOLC_VERSION) return null
    const reported = await probes.bundled()
    if (reported === null || !versionMatches(version, reported)) return null
    return { kind: 'solcjs', path: null, version: longVersion(reported), source: 'bundled' }
  })

  for (const candidate of candidates) {
    const found = await candidate()
    if (found) return found
  }
  throw new CompilerNotFoundError(describeVersion(version), looked)
}

type Candidate = { kind: 'native' | 'solcjs'; path: string; commit: string | null }

async function firstOf(candidates: Array<Candidate | null>, source: Compiler['source'], version: CompilerVersion, probes: VersionProbes): Promise<Compiler | null> {
  for (const candidate of candidates) {
    if (!candidate) continue
    // A name that carries the commit says which build it is; a bare `solc-0.8.37` is asked.
    if (candidate.commit !== null) {
      if (version.commit !== null && candidate.commit !== version.commit) continue
      return { kind: candidate.kind, path: candidate.path, version: `v${version.short}+commit.${candidate.commit}`, source }
    }
    if (candidate.kind === 'solcjs') {
      if (version.commit === null) return { kind: 'solcjs', path: candidate.path, version: null, source }
      continue
    }
    const reported = await probes.native(candidate.path)
    if (reported !== null && versionMatches(version, reported)) return { kind: 'native', path: candidate.path, version: longVersion(reported), source }
  }
  return null
}

function svmLayout(root: string, version: CompilerVersion): Candidate | null {
  const path = join(root, version.short, `solc-${version.short}`)
  return isFile(path) ? { kind: 'native', path, commit: null } : null
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * The compilers of `version` lying in one folder under the names hardhat and
 * binaries.soliditylang.org give them: `solc-<platform>-v<v>+commit.<c>`, `solc-v<v>+commit.<c>`,
 * `solc-<v>`, and `soljson-v<v>+commit.<c>.js`; natives first. hardhat marks a binary that failed
 * its own check with `<name>.does.not.work`.
 */
function scanFolder(dir: string, version: CompilerVersion, natives: boolean): Candidate[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const v = escape(version.short)
  const native = new RegExp(`^solc-(?:[a-z]+-amd64-|[a-z]+-arm64-)?v?${v}(?:\\+commit\\.([0-9a-f]{8}))?(?:\\.exe)?$`)
  const soljson = new RegExp(`^soljson-v?${v}(?:\\+commit\\.([0-9a-f]{8}))?\\.js$`)
  const found: Candidate[] = []
  for (const name of names.sort()) {
    if (names.includes(`${name}.does.not.work`)) continue
    const path = join(dir, name)
    const isNative = natives ? native.exec(name) : null
    if (isNative && isFile(path)) found.push({ kind: 'native', path, commit: isNative[1] ?? null })
    const isSoljson = soljson.exec(name)
    if (isSoljson && isFile(path)) found.push({ kind: 'solcjs', path, commit: isSoljson[1] ?? null })
  }
  return found.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'native' ? -1 : 1))
}

/** hardhat's `compilers*` folders (compilers-v2 today) and in each the platform folders this system can use. */
function hardhatFolders(root: string): string[] {
  let names: string[]
  try {
    names = readdirSync(root).filter((name) => name.startsWith('compilers')).sort().reverse()
  } catch {
    return []
  }
  const platform = NATIVE_PLATFORM[process.platform]
  return names.flatMap((name) => [platform, 'wasm'].filter((p): p is string => p !== undefined).map((p) => join(root, name, p))).filter((dir) => existsSync(dir))
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { keccak256, type Abi, type Hex } from 'viem'
import { createCache } from '../cache.ts'
import type { MatchKind } from '../spool/verified.ts'
import { bare, maskedRuntimeHash, zero, type ImmutableReferences } from '../verify/bytecode.ts'

/** A contract on chain matched to a build artifact of a local folder. */
export type ArtifactMatch = {
  name: string
  /** The artifact file's absolute path. */
  path: string
  abi: Abi
  match: MatchKind
  /** The sources of its compile (path to content), from the build info beside it; null without one. */
  sources: Record<string, string> | null
}

/**
 * The build artifacts of local folders (forge's `out/`, hardhat's `artifacts/`), indexed by their
 * masked runtime code, re-read as they change: `match` looks the folders over again when the
 * last look is older than the debounce, and reads only the files whose size or time changed,
 * so a new `forge build` is seen without a restart.
 */
export type ArtifactIndex = {
  /** The artifact whose runtime code `code` (hex, with or without 0x) is, or null. */
  match: (code: string) => ArtifactMatch | null
  /** Looks the folders over now (a test's, or a caller that knows they changed). */
  refresh: () => void
  /** The number of artifacts with runtime code indexed. */
  size: () => number
}

export type ArtifactIndexOptions = {
  /** How long a look at the folders holds before `match` looks again. */
  debounceMs?: number
  /** The most JSON files read from one folder; the rest are left out. */
  maxFiles?: number
  /** The largest artifact or build info read. */
  maxFileBytes?: number
  now?: () => number
}

type Entry = {
  name: string
  path: string
  abi: Abi
  /** Bare hex, as compiled: zeros where the immutables and the libraries' addresses go. */
  code: string
  references: ImmutableReferences
  hash: Hex
  /** The build info file, and the source files of this contract's compile when the metadata lists them. */
  buildInfo: string | null
  sourcePaths: string[] | null
}

type Seen = { mtimeMs: number; size: number }

const MAX_DEPTH = 8

export function createArtifactIndex(folders: string[], options: ArtifactIndexOptions = {}): ArtifactIndex {
  const { debounceMs = 1000, maxFiles = 20_000, maxFileBytes = 256 * 1024 * 1024, now = () => performance.now() } = options
  const roots = folders.map((folder) => resolve(folder))
  const artifacts = new Map<string, Seen & { entries: Entry[] }>()
  const buildInfos = new Map<string, Seen & BuildInfoIndex>()
  // "source path \0 keccak of its content" to the build info that compiled it: how a forge artifact finds its build info.
  let bySource = new Map<string, string>()
  let byLength = new Map<number, Entry[]>()
  let lookedAt = -Infinity

  const readJson = (path: string, size: number): any => {
    if (size > maxFileBytes) return null
    try {
      return JSON.parse(readFileSync(path, 'utf8'))
    } catch {
      return null // half written by a running build, or not an artifact: looked at again when it changes
    }
  }

  function refresh() {
    lookedAt = now()
    const found = new Map<string, Seen>()
    const foundInfos = new Map<string, Seen>()
    for (const root of roots) listJson(root, 0, found, foundInfos, { left: maxFiles })
    let changed = false
    for (const [path, seen] of foundInfos) {
      const old = buildInfos.get(path)
      if (old && old.mtimeMs === seen.mtimeMs && old.size === seen.size) continue
      changed = true
      const info = readJson(path, seen.size)
      buildInfos.set(path, { ...seen, ...indexBuildInfo(info) })
    }
    for (const path of buildInfos.keys()) if (!foundInfos.has(path)) (buildInfos.delete(path), (changed = true))
    if (changed) {
      bySource = new Map()
      for (const [path, info] of buildInfos) for (const key of info.keys) bySource.set(key, path)
    }
    for (const [path, seen] of found) {
      const old = artifacts.get(path)
      if (!changed && old && old.mtimeMs === seen.mtimeMs && old.size === seen.size) continue
      artifacts.set(path, { ...seen, entries: entriesOf(path, readJson(path, seen.size)) })
    }
    for (const path of artifacts.keys()) if (!found.has(path)) artifacts.delete(path)
    byLength = new Map()
    for (const { entries } of artifacts.values()) {
      for (const entry of entries) byLength.set(entry.code.length, [...(byLength.get(entry.code.length) ?? []), entry])
    }
  }

  /** An artifact file's contract: forge's (`deployedBytecode.object`) or hardhat's (`deployedBytecode` a string). */
  function entriesOf(path: string, json: any): Entry[] {
    if (!json || typeof json !== 'object' || !Array.isArray(json.abi)) return []
    const deployed = typeof json.deployedBytecode === 'string' ? json.deployedBytecode : json.deployedBytecode?.object
    if (typeof deployed !== 'string') return []
    const linked = unlinked(deployed)
    if (!linked || linked.code.length === 0) return []
    const metadata = typeof json.metadata === 'string' ? parseOr(json.metadata) : json.metadata
    const target = Object.entries(metadata?.settings?.compilationTarget ?? {})[0] as [string, string] | undefined
    const sourceName: string | null = typeof json.sourceName === 'string' ? json.sourceName : (target?.[0] ?? null)
    const name: string = typeof json.contractName === 'string' ? json.contractName : (target?.[1] ?? basename(path, '.json'))
    let buildInfo: string | null = null
    let references = cleanReferences(json.deployedBytecode?.immutableReferences)
    let sourcePaths: string[] | null = metadata?.sources && typeof metadata.sources === 'object' ? Object.keys(metadata.sources) : null
    // hardhat: X.dbg.json names the build info, whose output has the immutable references and the metadata.
    const debug = readJson(path.replace(/\.json$/, '.dbg.json'), 1024 * 1024)
    if (typeof debug?.buildInfo === 'string') {
      buildInfo = resolve(dirname(path), debug.buildInfo)
      const compiled = buildInfos.get(buildInfo)?.contracts.get(`${sourceName}:${name}`)
      if (compiled) ({ references, sourcePaths } = { references: compiled.references, sourcePaths: compiled.sourcePaths ?? sourcePaths })
    } else if (sourceName && metadata?.sources?.[sourceName]?.keccak256) {
      buildInfo = bySource.get(`${sourceName}\0${metadata.sources[sourceName].keccak256}`) ?? null
    }
    const allReferences = { ...references, ...linked.libraries }
    return [{
      name,
      path,
      abi: json.abi as Abi,
      code: linked.code,
      references: allReferences,
      hash: maskedRuntimeHash(linked.code, { immutableReferences: allReferences }),
      buildInfo,
      sourcePaths,
    }]
  }

  // A build info runs to megabytes: its sources are kept for the next lookups, bounded in characters.
  const sourceCache = createCache<string, { sources: Record<string, { content?: unknown }> }>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (value) => Math.max(1, JSON.stringify(value.sources).length),
  })
  function sourcesOf(entry: Entry): Record<string, string> | null {
    if (!entry.buildInfo) return null
    const seen = buildInfos.get(entry.buildInfo)
    if (!seen) return null
    const key = `${entry.buildInfo}\0${seen.mtimeMs}\0${seen.size}`
    let cached = sourceCache.get(key)
    if (!cached) {
      const input = readJson(entry.buildInfo, seen.size)?.input?.sources
      if (!input || typeof input !== 'object') return null
      cached = { sources: input }
      sourceCache.set(key, cached)
    }
    const sources = cached.sources
    const out: Record<string, string> = {}
    for (const [path, source] of Object.entries(sources as Record<string, { content?: unknown }>)) {
      if (typeof source?.content === 'string' && (!entry.sourcePaths || entry.sourcePaths.includes(path))) out[path] = source.content
    }
    return out
  }

  return {
    refresh,
    size: () => [...byLength.values()].reduce((sum, entries) => sum + entries.length, 0),
    match(onChain) {
      if (now() - lookedAt >= debounceMs) refresh()
      const code = bare(onChain)
      const hashes = new Map<string, Hex>()
      for (const entry of byLength.get(code.length) ?? []) {
        const key = JSON.stringify(entry.references)
        const hash = hashes.get(key) ?? maskedRuntimeHash(code, { immutableReferences: entry.references })
        hashes.set(key, hash)
        if (hash !== entry.hash) continue
        // Exact: equal with only the immutables' bytes taken from the chain, metadata included.
        const exact = zero(code, Object.values(entry.references).flat()) === entry.code
        return { name: entry.name, path: entry.path, abi: entry.abi, match: exact ? 'exact_match' : 'match', sources: sourcesOf(entry) }
      }
      return null
    },
  }
}

/** What a build info tells of its contracts, by `path:Name`: their immutable references and the sources of each. */
type BuildInfoIndex = { keys: string[]; contracts: Map<string, { references: ImmutableReferences; sourcePaths: string[] | null }> }

/** A build info's source keys (for forge's artifacts) and its contracts (for hardhat's). */
function indexBuildInfo(info: any): BuildInfoIndex {
  const keys: string[] = []
  const contracts = new Map<string, { references: ImmutableReferences; sourcePaths: string[] | null }>()
  const sources = info?.input?.sources
  if (sources && typeof sources === 'object') {
    for (const [path, source] of Object.entries(sources as Record<string, { content?: unknown }>)) {
      if (typeof source?.content === 'string') keys.push(`${path}\0${keccak256(Buffer.from(source.content, 'utf8'))}`)
    }
  }
  const output = info?.output?.contracts
  if (output && typeof output === 'object') {
    for (const [path, byName] of Object.entries(output as Record<string, Record<string, any>>)) {
      for (const [name, contract] of Object.entries(byName ?? {})) {
        const metadata = typeof contract?.metadata === 'string' ? parseOr(contract.metadata) : null
        const sourcePaths = metadata?.sources && typeof metadata.sources === 'object' ? Object.keys(metadata.sources) : null
        contracts.set(`${path}:${name}`, { references: cleanReferences(contract?.evm?.deployedBytecode?.immutableReferences), sourcePaths })
      }
    }
  }
  return { keys, contracts }
}

/** Immutable references as a build wrote them, keeping only well-formed places (a file is the developer's, not to be trusted blindly). */
function cleanReferences(value: unknown): ImmutableReferences {
  const clean: ImmutableReferences = {}
  if (!value || typeof value !== 'object') return clean
  for (const [id, spots] of Object.entries(value as Record<string, unknown>)) {
    if (!Array.isArray(spots)) continue
    const good = spots.filter((spot) => Number.isSafeInteger(spot?.start) && Number.isSafeInteger(spot?.length) && spot.start >= 0 && spot.length > 0 && spot.length <= 32)
    if (good.length > 0) clean[id] = good.map(({ start, length }) => ({ start, length }))
  }
  return clean
}

/**
 * Runtime code as an artifact writes it, its unlinked libraries' placeholders (`__$…$__`, 40
 * characters) zeroed and named as references to mask; null for text that is not code.
 */
function unlinked(object: string): { code: string; libraries: ImmutableReferences } | null {
  let text = object.startsWith('0x') ? object.slice(2) : object
  const spots: Array<{ start: number; length: number }> = []
  for (let at = text.indexOf('__'); at !== -1; at = text.indexOf('__', at + 40)) {
    if (at % 2 !== 0) return null
    spots.push({ start: at / 2, length: 20 })
    text = text.slice(0, at) + '0'.repeat(40) + text.slice(at + 40)
  }
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return null
  return { code: text.toLowerCase(), libraries: spots.length ? { libraries: spots } : {} }
}

function parseOr(text: string): any {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The JSON files under `folder` (artifacts, and build infos apart), to a bounded depth and count. */
function listJson(folder: string, depth: number, found: Map<string, Seen>, infos: Map<string, Seen>, budget: { left: number }, inBuildInfo = false): void {
  let names: import('node:fs').Dirent[]
  try {
    names = readdirSync(folder, { withFileTypes: true })
  } catch {
    return // a folder that is not there (yet): a build makes it
  }
  for (const entry of names) {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) {
      if (depth < MAX_DEPTH) listJson(path, depth + 1, found, infos, budget, inBuildInfo || entry.name === 'build-info')
    } else if (entry.isFile() && entry.name.endsWith('.json') && !entry.name.endsWith('.dbg.json') && budget.left > 0) {
      budget.left--
      try {
        const { mtimeMs, size } = statSync(path)
        ;(inBuildInfo ? infos : found).set(path, { mtimeMs, size })
      } catch {
        // removed while listed
      }
    }
  }
}

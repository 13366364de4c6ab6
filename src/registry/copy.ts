import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { checkLogo, formatProblem, validateTags, validateTokenList, type Problem } from '../../registry/scripts/validate.mjs'
import { writeFileAtomic } from '../files/writeFileAtomic.ts'
import type { Logger } from '../log.ts'
import { RegistryReadError, type RegistrySource } from './source.ts'

export type RegistryFileName = 'tokenlist.json' | 'tags.json'

/** A validated file as served: the text exactly as it was fetched, and its parsed form. */
export type ServedFile = { text: string; json: Record<string, unknown>; acceptedAt: string }

export type Logo = { bytes: Uint8Array; contentType: string }

export type Label = { name: string; category: string; project: string }

export type RefreshOutcome = 'replaced' | 'unchanged' | 'rejected' | 'unreadable'

export type RegistryOptions = {
  source: RegistrySource
  network: string
  rawBase: string
  /** Where the last good copy lives (data/registry). */
  dir: string
  log: Logger
}

/** The two folders of logos/: token logos and the project logos tags point to. */
type LogoKind = 'tokens' | 'tags'
const LOGO_KINDS = ['tokens', 'tags'] as const

/** Per kind, address in lower case → repository path of a logo file. */
type LogoPaths = Record<LogoKind, Map<string, string>>

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', svg: 'image/svg+xml' }

/**
 * The explorer's copy of the registry (docs/registry.md): each file is validated as a
 * whole with the registry's own validator; a good one replaces the served copy in memory and
 * on disk, a bad one is rejected entirely and the previous copy stays. Logos follow the same
 * rule file by file: every refresh reads the logos the served copies reference again, a changed
 * logo that passes the logo rules replaces the served one (in memory and on disk), and one that
 * fails them is rejected and leaves the last good logo in service (see `choosePaths`).
 */
export class RegistryCopy {
  private readonly files = new Map<RegistryFileName, ServedFile>()
  /**
   * The last good bytes of each logo file in service, by repository path (such as
   * `testnet/logos/tokens/0x….png`). The cache on disk holds the same bytes under the same path.
   */
  private logoFiles = new Map<string, Logo>()
  /** Which of those files each token and each tagged contract shows. */
  private logoPaths: LogoPaths = { tokens: new Map(), tags: new Map() }
  /** The text of the served-logo index as last read or written, so an unchanged one is not rewritten. */
  private savedLogoIndex: string | null = null
  private labels = new Map<string, Label>()
  private timer: ReturnType<typeof setInterval> | null = null
  private refreshing = false

  constructor(private readonly options: RegistryOptions) {}

  file(name: RegistryFileName): ServedFile | null {
    return this.files.get(name) ?? null
  }

  tokenLogo(address: string): Logo | null {
    return this.logoOf('tokens', address)
  }

  tagLogo(address: string): Logo | null {
    return this.logoOf('tags', address)
  }

  /** The tag of a contract address, for showing a label in its place. */
  label(address: string): Label | null {
    return this.labels.get(address.toLowerCase()) ?? null
  }

  /** Serves the last good copy kept on disk, if any, at once. */
  loadFromDisk(): void {
    for (const name of ['tokenlist.json', 'tags.json'] as const) {
      const path = this.diskPath(name)
      if (!existsSync(path)) continue
      const text = readFileSync(path, 'utf8')
      const { json, problems } = this.check(name, text)
      if (problems.length > 0) {
        this.options.log.warn({ component: 'registry', path, problems: problems.slice(0, 20).map(formatProblem) }, 'the copy on disk does not validate; ignored')
        continue
      }
      this.files.set(name, { text, json: json!, acceptedAt: new Date().toISOString() })
    }
    this.rebuildLabels()
    this.loadLogosFromDisk()
  }

  /** Fetches both files, keeps each that validates, and reads the logos they reference again. */
  async refresh(): Promise<Record<RegistryFileName, RefreshOutcome>> {
    const outcome = {} as Record<RegistryFileName, RefreshOutcome>
    for (const name of ['tokenlist.json', 'tags.json'] as const) outcome[name] = await this.refreshFile(name)
    // With neither file readable the source is down: the logos cannot be read either, and the
    // ones in service stay without a warning per logo.
    if (Object.values(outcome).some((result) => result !== 'unreadable')) await this.refreshLogos()
    return outcome
  }

  /** Refreshes now and then every `intervalMs`; a failing refresh is logged and changes nothing. */
  start(intervalMs: number): void {
    const run = async () => {
      // A slow source must not pile refreshes up: a tick that finds one still running skips.
      if (this.refreshing) return
      this.refreshing = true
      try {
        await this.refresh()
      } catch (error) {
        this.options.log.error({ component: 'registry', err: error }, 'registry refresh failed')
      } finally {
        this.refreshing = false
      }
    }
    void run()
    this.timer = setInterval(run, intervalMs)
    this.timer.unref?.()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private async refreshFile(name: RegistryFileName): Promise<RefreshOutcome> {
    const { source, network, log } = this.options
    const relative = `${network}/${name}`
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await source.read(relative))
    } catch (error) {
      const reason = error instanceof RegistryReadError ? error.message : `${relative}: not UTF-8 text`
      log.warn({ component: 'registry', source: source.describe, error: reason }, 'registry file unreadable; the previous copy stays')
      return 'unreadable'
    }
    if (this.files.get(name)?.text === text) return 'unchanged'
    const { json, problems } = this.check(name, text)
    if (problems.length > 0) {
      log.error(
        { component: 'registry', file: relative, count: problems.length, problems: problems.slice(0, 50).map(formatProblem) },
        'registry file rejected: it fails validation; the previous copy stays in service',
      )
      return 'rejected'
    }
    writeFileAtomic(this.diskPath(name), text)
    this.files.set(name, { text, json: json!, acceptedAt: new Date().toISOString() })
    this.rebuildLabels()
    log.info({ component: 'registry', file: relative }, 'registry file accepted')
    return 'replaced'
  }

  private check(name: RegistryFileName, text: string): { json: Record<string, unknown> | null; problems: Problem[] } {
    const file = `${this.options.network}/${name}`
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (error) {
      return { json: null, problems: [{ file, path: '', message: `not valid JSON: ${(error as Error).message}` }] }
    }
    const options = { network: this.options.network, rawBase: this.options.rawBase }
    const problems = name === 'tokenlist.json' ? validateTokenList(json, options) : validateTags(json, options)
    return { json: problems.length === 0 ? (json as Record<string, unknown>) : null, problems }
  }

  /** Logo references of the served copies: address → path inside the repository. */
  private logoReferences(): LogoPaths {
    const prefix = `${this.options.rawBase}/`
    const relative = (url: unknown) => (typeof url === 'string' && url.startsWith(prefix) ? url.slice(prefix.length) : null)
    const tokens = new Map<string, string>()
    const list = this.files.get('tokenlist.json')?.json as { tokens?: Array<{ address: string; logoURI: string }> } | undefined
    for (const token of list?.tokens ?? []) {
      const path = relative(token.logoURI)
      if (path) tokens.set(token.address.toLowerCase(), path)
    }
    const tags = new Map<string, string>()
    const tagFile = this.files.get('tags.json')?.json as { tags?: Record<string, { logo: string | null }> } | undefined
    for (const [address, tag] of Object.entries(tagFile?.tags ?? {})) {
      const path = relative(tag.logo)
      if (path) tags.set(address.toLowerCase(), path)
    }
    return { tokens, tags }
  }

  private rebuildLabels(): void {
    const tagFile = this.files.get('tags.json')?.json as { tags?: Record<string, Label> } | undefined
    this.labels = new Map(
      Object.entries(tagFile?.tags ?? {}).map(([address, tag]) => [address.toLowerCase(), { name: tag.name, category: tag.category, project: tag.project }]),
    )
  }

  private logoOf(kind: LogoKind, address: string): Logo | null {
    const path = this.logoPaths[kind].get(address.toLowerCase())
    return path === undefined ? null : (this.logoFiles.get(path) ?? null)
  }

  /**
   * Reads every logo the served copies reference, on every refresh, so that a logo replaced
   * under the same file name is picked up without a change to the list (the registry holds a
   * handful of files of at most 100 KB each).
   */
  private async refreshLogos(): Promise<void> {
    const references = this.logoReferences()
    const fresh = new Map<string, Logo>()
    for (const kind of LOGO_KINDS) {
      for (const path of new Set(references[kind].values())) {
        const logo = await this.refreshLogoFile(path, kind)
        if (logo) fresh.set(path, logo)
      }
    }
    const bytesOf = (path: string) => fresh.get(path) ?? this.logoFiles.get(path)
    const paths: LogoPaths = {
      tokens: this.choosePaths(references.tokens, this.logoPaths.tokens, bytesOf),
      tags: this.choosePaths(references.tags, this.logoPaths.tags, bytesOf),
    }
    // Only the files some address shows stay in memory; the cache on disk keeps the others, unread.
    const inUse = new Set([...paths.tokens.values(), ...paths.tags.values()])
    this.logoFiles = new Map([...inUse].map((path) => [path, bytesOf(path)!]))
    this.logoPaths = paths
    this.saveLogoIndex()
  }

  /**
   * Reads one logo file again and gives its good bytes: the new bytes when they changed and pass
   * the logo rules (then also written to the cache on disk), else the last good bytes of this file
   * in service, if any. Bytes equal to the served ones are neither checked again nor rewritten.
   */
  private async refreshLogoFile(path: string, kind: LogoKind): Promise<Logo | null> {
    const { source, log } = this.options
    const served = this.logoFiles.get(path) ?? null
    let bytes: Uint8Array
    try {
      bytes = await source.read(path)
    } catch (error) {
      log.warn({ component: 'registry', logo: path, error: (error as Error).message }, 'logo unreadable; the last good one stays in service')
      return served
    }
    if (served && sameBytes(bytes, served.bytes)) return served
    const problems = checkLogo(bytes, path, { kind })
    if (problems.length > 0) {
      log.error({ component: 'registry', logo: path, problems: problems.map(formatProblem) }, 'logo rejected: it fails the logo rules; the last good one, if any, stays in service')
      return served
    }
    writeFileAtomic(join(this.options.dir, path), bytes)
    log.info({ component: 'registry', logo: path }, 'logo accepted')
    return { bytes, contentType: contentTypeOf(path) }
  }

  /**
   * The file each address shows after a refresh, the list file's rule applied to one logo: an
   * address shows the file its entry references when that file has good bytes; when it has none
   * (it fails the logo rules or cannot be read, and no earlier good version of it is in service),
   * the address keeps the file it showed before, so the last good logo of a token or tag stays in
   * service until a good one replaces it.
   *
   * That holds when the logoURI changes too: a token whose PNG logo is switched to an SVG that
   * fails the rules keeps showing its PNG (with its own content type). The entry is still the same
   * token and the failed SVG is a rejected logo update like any other; taking the logo away would
   * let a broken update do what a rejected one must not. Once a good SVG is read it replaces the
   * PNG for good.
   *
   * An address the served copies no longer reference (entry removed, tag logo set to null) shows
   * nothing: a removed token has no "last good logo", and a token added again starts afresh.
   */
  private choosePaths(references: Map<string, string>, before: Map<string, string>, bytesOf: (path: string) => Logo | undefined): Map<string, string> {
    const chosen = new Map<string, string>()
    for (const [address, referenced] of references) {
      const path = bytesOf(referenced) ? referenced : before.get(address)
      if (path !== undefined && bytesOf(path)) chosen.set(address, path)
    }
    return chosen
  }

  /**
   * Serves the logos cached on disk. Each address the served copies still reference shows the
   * file the served-logo index names (it may be an earlier file of the token, see `choosePaths`);
   * without an index (a cache written before it existed) the file its entry references. A file
   * that fails the logo rules now (the rules may have become stricter) is not served.
   */
  private loadLogosFromDisk(): void {
    const references = this.logoReferences()
    const saved = this.readLogoIndex()
    const found = new Map<string, Logo | null>()
    this.logoFiles = new Map()
    this.logoPaths = { tokens: new Map(), tags: new Map() }
    for (const kind of LOGO_KINDS) {
      for (const [address, referenced] of references[kind]) {
        const path = saved ? saved[kind][address] : referenced
        if (path === undefined) continue
        if (!found.has(path)) found.set(path, this.logoFromDisk(path, kind))
        const logo = found.get(path)
        if (!logo) continue
        this.logoFiles.set(path, logo)
        this.logoPaths[kind].set(address, path)
      }
    }
  }

  private logoFromDisk(path: string, kind: LogoKind): Logo | null {
    // The index is a file on disk like any other: only paths inside this network's logo folder.
    if (!path.startsWith(`${this.options.network}/logos/${kind}/`) || path.split('/').includes('..')) return null
    const file = join(this.options.dir, path)
    if (!existsSync(file)) return null
    const bytes = new Uint8Array(readFileSync(file))
    const problems = checkLogo(bytes, path, { kind })
    if (problems.length > 0) {
      this.options.log.warn({ component: 'registry', logo: file, problems: problems.map(formatProblem) }, 'the logo on disk fails the logo rules; not served')
      return null
    }
    return { bytes, contentType: contentTypeOf(path) }
  }

  /** data/registry/<network>/served-logos.json: which file each address showed, for a restart. */
  private logoIndexPath(): string {
    return join(this.options.dir, this.options.network, 'served-logos.json')
  }

  private readLogoIndex(): Record<LogoKind, Record<string, string>> | null {
    const path = this.logoIndexPath()
    if (!existsSync(path)) return null
    const text = readFileSync(path, 'utf8')
    try {
      const json = JSON.parse(text) as Record<LogoKind, Record<string, string>>
      if (LOGO_KINDS.every((kind) => isStringRecord(json?.[kind]))) {
        this.savedLogoIndex = text
        return json
      }
    } catch {
      // reported below like any other malformed index
    }
    this.options.log.warn({ component: 'registry', path }, 'the served-logo index on disk is malformed; serving the logos the copies reference')
    return null
  }

  private saveLogoIndex(): void {
    const index = Object.fromEntries(LOGO_KINDS.map((kind) => [kind, Object.fromEntries(this.logoPaths[kind])]))
    const text = `${JSON.stringify(index, null, 2)}\n`
    if (text === this.savedLogoIndex) return
    writeFileAtomic(this.logoIndexPath(), text)
    this.savedLogoIndex = text
  }

  private diskPath(name: RegistryFileName): string {
    return join(this.options.dir, this.options.network, name)
  }
}

function contentTypeOf(path: string): string {
  return CONTENT_TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream'
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string')
}

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

const CONTENT_TYPES: Record<string, string> = { png: 'image/png', svg: 'image/svg+xml' }

/**
 * The explorer's copy of the registry (spec 01 "Served copy"): each file is validated as a
 * whole with the registry's own validator; a good one replaces the served copy in memory and
 * on disk, a bad one is rejected entirely and the previous copy stays. Logos the good copy
 * references are fetched, checked with the same logo rules and cached on disk.
 */
export class RegistryCopy {
  private readonly files = new Map<RegistryFileName, ServedFile>()
  private tokenLogos = new Map<string, Logo>()
  private tagLogos = new Map<string, Logo>()
  private labels = new Map<string, Label>()
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly options: RegistryOptions) {}

  file(name: RegistryFileName): ServedFile | null {
    return this.files.get(name) ?? null
  }

  tokenLogo(address: string): Logo | null {
    return this.tokenLogos.get(address.toLowerCase()) ?? null
  }

  tagLogo(address: string): Logo | null {
    return this.tagLogos.get(address.toLowerCase()) ?? null
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
    this.rebuildIndexes(true)
  }

  /** Fetches both files, keeps each that validates, and refreshes the logos. */
  async refresh(): Promise<Record<RegistryFileName, RefreshOutcome>> {
    const outcome = {} as Record<RegistryFileName, RefreshOutcome>
    for (const name of ['tokenlist.json', 'tags.json'] as const) outcome[name] = await this.refreshFile(name)
    if (outcome['tokenlist.json'] === 'replaced' || outcome['tags.json'] === 'replaced' || this.tokenLogos.size + this.tagLogos.size === 0) {
      await this.fetchLogos()
    }
    return outcome
  }

  /** Refreshes now and then every `intervalMs`; a failing refresh is logged and changes nothing. */
  start(intervalMs: number): void {
    const run = () =>
      this.refresh().catch((error) => this.options.log.error({ component: 'registry', err: error }, 'registry refresh failed'))
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
    this.rebuildIndexes(false)
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
  private logoReferences(): { tokens: Map<string, string>; tags: Map<string, string> } {
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

  private rebuildIndexes(fromDisk: boolean): void {
    const tagFile = this.files.get('tags.json')?.json as { tags?: Record<string, Label> } | undefined
    this.labels = new Map(
      Object.entries(tagFile?.tags ?? {}).map(([address, tag]) => [address.toLowerCase(), { name: tag.name, category: tag.category, project: tag.project }]),
    )
    if (fromDisk) {
      const { tokens, tags } = this.logoReferences()
      this.tokenLogos = this.logosFromDisk(tokens, 'tokens')
      this.tagLogos = this.logosFromDisk(tags, 'tags')
    }
  }

  private logosFromDisk(references: Map<string, string>, kind: 'tokens' | 'tags'): Map<string, Logo> {
    const logos = new Map<string, Logo>()
    for (const [address, path] of references) {
      const file = join(this.options.dir, path)
      if (!existsSync(file)) continue
      const bytes = new Uint8Array(readFileSync(file))
      if (checkLogo(bytes, path, { kind }).length === 0) logos.set(address, { bytes, contentType: contentTypeOf(path) })
    }
    return logos
  }

  private async fetchLogos(): Promise<void> {
    const { tokens, tags } = this.logoReferences()
    this.tokenLogos = await this.fetchKind(tokens, 'tokens', this.tokenLogos)
    this.tagLogos = await this.fetchKind(tags, 'tags', this.tagLogos)
  }

  private async fetchKind(references: Map<string, string>, kind: 'tokens' | 'tags', previous: Map<string, Logo>): Promise<Map<string, Logo>> {
    const { source, log } = this.options
    const logos = new Map<string, Logo>()
    const byPath = new Map<string, Logo | null>()
    for (const [address, path] of references) {
      if (!byPath.has(path)) {
        let logo: Logo | null = null
        try {
          const bytes = await source.read(path)
          const problems = checkLogo(bytes, path, { kind })
          if (problems.length > 0) {
            log.error({ component: 'registry', logo: path, problems: problems.map(formatProblem) }, 'logo rejected: it fails the logo rules')
          } else {
            writeFileAtomic(join(this.options.dir, path), bytes)
            logo = { bytes, contentType: contentTypeOf(path) }
          }
        } catch (error) {
          log.warn({ component: 'registry', logo: path, error: (error as Error).message }, 'logo unreadable; the cached one stays')
          logo = previous.get(address) ?? null
        }
        byPath.set(path, logo)
      }
      const logo = byPath.get(path)
      if (logo) logos.set(address, logo)
    }
    return logos
  }

  private diskPath(name: RegistryFileName): string {
    return join(this.options.dir, this.options.network, name)
  }
}

function contentTypeOf(path: string): string {
  return CONTENT_TYPES[path.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream'
}

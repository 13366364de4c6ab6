import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { validateTokenList } from '../../registry/scripts/validate.mjs'
import type { Config } from '../config/load.ts'

/** How often the file's time of change is looked at. */
const CHECK_EVERY_MS = 1000

/** Where the explorer keeps its last good copy of the registry's files (RegistryCopy's folder). */
export const keptRegistryDir = (config: Config): string => join(config.dataDir, 'registry')

/**
 * The token list as the explorer last validated it, read from the copy it keeps on disk (the
 * explorer alone fetches the registry; every other part of the stack reads its copy). Read
 * again when the file changes, checked with the same validator, so the exchange index shows the
 * verified mark exactly where the explorer does. No copy yet, or one that does not validate:
 * nothing is listed, so nothing is verified.
 */
export class KeptTokenList {
  private readonly path: string
  private checkedAt = 0
  private changedAt = -1
  private listed = new Set<string>()

  constructor(
    dir: string,
    private readonly network: string,
    private readonly rawBase: string,
  ) {
    this.path = join(dir, network, 'tokenlist.json')
  }

  static of(config: Config): KeptTokenList {
    return new KeptTokenList(keptRegistryDir(config), config.registry.network, config.registry.rawBase)
  }

  /** Whether the list lists `address` (any case): listed means verified. */
  has(address: string): boolean {
    this.refresh()
    return this.listed.has(address.toLowerCase())
  }

  private refresh(): void {
    const now = Date.now()
    if (now - this.checkedAt < CHECK_EVERY_MS) return
    this.checkedAt = now
    let changedAt: number
    try {
      changedAt = statSync(this.path).mtimeMs
    } catch {
      this.changedAt = -1
      this.listed = new Set()
      return
    }
    if (changedAt === this.changedAt) return
    this.changedAt = changedAt
    try {
      const json = JSON.parse(readFileSync(this.path, 'utf8')) as { tokens?: Array<{ address: string }> }
      const problems = validateTokenList(json, { network: this.network, rawBase: this.rawBase })
      this.listed = problems.length === 0 ? new Set((json.tokens ?? []).map((token) => token.address.toLowerCase())) : new Set()
    } catch {
      this.listed = new Set()
    }
  }
}

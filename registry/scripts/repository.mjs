// @ts-check
/**
 * The registry folder on disk: finds the network folders, reads their lists, checks every logo
 * file and that each is referenced, and runs the --base and --rpc checks when asked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { checkOnChain } from './chain.mjs'
import { isObject } from './fields.mjs'
import { checkLogo } from './logos.mjs'
import { DEFAULT_RAW_BASE, NETWORK_CHAIN_IDS, logoFileOf } from './network.mjs'
import { plural } from './problems.mjs'
import { validateTags } from './tags.mjs'
import { validateTokenList } from './tokenlist.mjs'
import { checkBaseRef, checkVersionBumps } from './versions.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./network.mjs').Context} Context */
/** @typedef {import('./network.mjs').ParsedNetwork} ParsedNetwork */

/**
 * @typedef {object} RepositoryOptions
 * @property {string} [network] only this network folder; default every folder holding a list
 * @property {string} [rawBase] defaults to DEFAULT_RAW_BASE
 * @property {string} [rpc] a JSON-RPC URL: also check the entries against the chain
 * @property {string} [base] a git ref: also check the version bumps against it
 */

/**
 * Every problem of the repository at `root`, as the test command and CI see them.
 * @param {string} root the registry folder
 * @param {RepositoryOptions} [options]
 * @returns {Promise<Problem[]>}
 */
export async function validateRepository(root, options = {}) {
  return (await inspectRepository(root, options)).problems
}

/**
 * The problems and a line per network saying what was checked.
 * @param {string} root @param {RepositoryOptions} options
 * @returns {Promise<{ problems: Problem[], checked: string[] }>}
 */
export async function inspectRepository(root, options) {
  const rawBase = (options.rawBase ?? DEFAULT_RAW_BASE).replace(/\/+$/, '')
  /** @type {Problem[]} */
  const problems = []
  const checked = []
  const baseProblems = options.base ? checkBaseRef(root, options.base) : []
  problems.push(...baseProblems)
  const networks = options.network ? [options.network] : findNetworks(root)
  for (const network of networks) {
    if (!isDirectory(join(root, network))) {
      problems.push({ file: network, path: '', message: `no such network folder in ${root}` })
      continue
    }
    const result = inspectNetwork(root, network, rawBase)
    problems.push(...result.problems)
    if (options.base && !baseProblems.length) problems.push(...checkVersionBumps(root, result.parsed, options.base))
    const hasLists = result.parsed.tokenlist !== undefined || result.parsed.tags !== undefined
    if (options.rpc && hasLists) problems.push(...(await checkOnChain(options.rpc, result.parsed, { network, rawBase, chainId: NETWORK_CHAIN_IDS[network] })))
    checked.push(result.summary)
  }
  return { problems, checked }
}

/** @param {string} path */
function isDirectory(path) {
  return existsSync(path) && statSync(path).isDirectory()
}

/** Network folders: those that hold a tokenlist.json or a tags.json. @param {string} root */
function findNetworks(root) {
  return readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .filter((name) => existsSync(join(root, name, 'tokenlist.json')) || existsSync(join(root, name, 'tags.json')))
    .sort()
}

/**
 * @param {string} root @param {string} network @param {string} rawBase
 * @returns {{ problems: Problem[], parsed: ParsedNetwork, summary: string }}
 */
function inspectNetwork(root, network, rawBase) {
  /** @type {Problem[]} */
  const problems = []
  const logos = listLogos(root, network)
  const options = { network, rawBase, logoExists: (/** @type {string} */ file) => logos.has(file) }
  const tokenlist = readJson(root, `${network}/tokenlist.json`, problems)
  const tags = readJson(root, `${network}/tags.json`, problems)
  if (tokenlist.found && tokenlist.parsed) problems.push(...validateTokenList(tokenlist.value, options))
  if (tags.found && tags.parsed) problems.push(...validateTags(tags.value, options))

  const referenced = referencedLogos(tokenlist.value, tags.value, { network, rawBase, chainId: undefined })
  for (const file of logos) {
    const kind = file.split('/')[2]
    if (kind !== 'tokens' && kind !== 'tags') {
      problems.push({ file, path: '', message: `logos go in ${network}/logos/tokens/ or ${network}/logos/tags/` })
      continue
    }
    problems.push(...checkLogo(readFileSync(join(root, file)), file, { kind }))
    // A list that does not parse names nothing; its parse error is the problem to fix first.
    if (tokenlist.parsed && tags.parsed && !referenced.has(file)) {
      problems.push({ file, path: '', message: "not referenced by this network's tokenlist.json or tags.json; remove it" })
    }
  }

  const parts = []
  if (tokenlist.found) parts.push(`tokenlist.json (${plural(countOf(tokenlist.value, 'tokens'), 'token')})`)
  if (tags.found) parts.push(`tags.json (${plural(countOf(tags.value, 'tags'), 'tag')})`)
  parts.push(plural(logos.size, 'logo'))
  const parsed = { network, tokenlist: tokenlist.parsed ? tokenlist.value : undefined, tags: tags.parsed ? tags.value : undefined }
  return { problems, parsed, summary: `${network}: ${parts.join(', ')}` }
}

/** @param {unknown} json @param {string} field */
function countOf(json, field) {
  const value = isObject(json) ? json[field] : undefined
  if (Array.isArray(value)) return value.length
  return isObject(value) ? Object.keys(value).length : 0
}

/**
 * @param {string} root @param {string} file relative to root @param {Problem[]} problems
 * @returns {{ found: boolean, parsed: boolean, value?: unknown }} parsed is true for an absent file
 */
function readJson(root, file, problems) {
  const path = join(root, file)
  if (!existsSync(path)) return { found: false, parsed: true }
  try {
    return { found: true, parsed: true, value: JSON.parse(readFileSync(path, 'utf8')) }
  } catch (error) {
    problems.push({ file, path: '', message: `is not valid JSON: ${/** @type {Error} */ (error).message}` })
    return { found: true, parsed: false }
  }
}

/**
 * Every file under `<network>/logos/`, relative to root with / separators, names in their exact
 * case as the directory lists them. `.gitkeep` only keeps an empty folder in git.
 * @param {string} root @param {string} network
 * @returns {Set<string>}
 */
function listLogos(root, network) {
  const files = new Set()
  /** @param {string} relative */
  const walk = (relative) => {
    if (!isDirectory(join(root, relative))) return
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = `${relative}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.name !== '.gitkeep') files.add(path)
    }
  }
  walk(`${network}/logos`)
  return files
}

/**
 * The logo files that the lists point at, relative to root.
 * @param {unknown} tokenlist @param {unknown} tags @param {Context} context
 * @returns {Set<string>}
 */
function referencedLogos(tokenlist, tags, context) {
  const files = new Set()
  const tokens = isObject(tokenlist) && Array.isArray(tokenlist.tokens) ? tokenlist.tokens : []
  for (const token of tokens) {
    const file = isObject(token) && typeof token.logoURI === 'string' ? logoFileOf(token.logoURI, 'tokens', context) : null
    if (file) files.add(file)
  }
  const entries = isObject(tags) && isObject(tags.tags) ? Object.values(tags.tags) : []
  for (const tag of entries) {
    const file = isObject(tag) && typeof tag.logo === 'string' ? logoFileOf(tag.logo, 'tags', context) : null
    if (file) files.add(file)
  }
  return files
}

// @ts-check
/**
 * The registry's validator: checks every network folder's tokenlist.json, tags.json and logos
 * against the rules of the registry's contributor guide (README.md), prints every problem, and
 * exits 1 when there is any.
 *
 *   node scripts/validate.mjs [root] [--network testnet] [--raw-base URL] [--rpc URL] [--base REF]
 *
 * It imports only Node.js built-ins so that it runs on a bare Node.js 20+ or Bun with nothing
 * installed, and it is also a library: the explorer service imports it to check each copy it
 * fetches before serving it, so the repository and the explorer can never disagree on a rule.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { isAddress, keccak256, toChecksumAddress } from './keccak.mjs'

export { isAddress, keccak256, toChecksumAddress }

/** Where the raw repository files are published; logoURI and tag logo values start with it. */
export const DEFAULT_RAW_BASE = 'https://raw.githubusercontent.com/stack-chain/registry/main'

/** The chain ID every entry of a network's list must carry. mainnet is added when it launches. */
export const NETWORK_CHAIN_IDS = Object.freeze(/** @type {Record<string, number>} */ ({ testnet: 78270 }))

/** Largest logo file, in bytes (100 KB). */
export const MAX_LOGO_BYTES = 102400

/** Width and height of every PNG logo, in pixels. */
export const PNG_LOGO_SIZE = 256

/**
 * One broken rule. `file` is relative to the registry root with / separators
 * (`testnet/tokenlist.json`), `path` is a JSON path inside it (`tokens[2].symbol`), empty for
 * the file as a whole.
 * @typedef {{ file: string, path: string, message: string }} Problem
 */

/**
 * How to validate one file of one network.
 * @typedef {object} FileOptions
 * @property {string} network the network folder, e.g. `testnet`
 * @property {string} [rawBase] defaults to DEFAULT_RAW_BASE
 * @property {number} [chainId] defaults to NETWORK_CHAIN_IDS[network]
 * @property {(relativePath: string) => boolean} [logoExists] answers whether a logo exists with
 *   exactly this case, for a path such as `testnet/logos/tokens/0xAbc….png`; without it, the
 *   existence of logo files is not checked (a fetched copy is validated on its own)
 */

/**
 * @typedef {object} RepositoryOptions
 * @property {string} [network] only this network folder; default every folder holding a list
 * @property {string} [rawBase] defaults to DEFAULT_RAW_BASE
 * @property {string} [rpc] a JSON-RPC URL: also check the entries against the chain
 * @property {string} [base] a git ref: also check the version bumps against it
 */

/** @typedef {Record<string, unknown>} Json */
/** @typedef {{ major: number, minor: number, patch: number }} Version */
/** @typedef {{ network: string, rawBase: string, chainId: number | undefined, logoExists?: (relativePath: string) => boolean }} Context */

const LIST_FIELDS = ['name', 'version', 'timestamp', 'tokens', 'tags', 'keywords', 'logoURI']
const TOKEN_FIELDS = ['chainId', 'address', 'name', 'symbol', 'decimals', 'logoURI', 'tags', 'extensions']
const TAGS_FILE_FIELDS = ['version', 'timestamp', 'categories', 'tags']
const TAG_FIELDS = ['name', 'category', 'project', 'url', 'logo', 'note']
const NULLABLE_MESSAGE = 'is required (use null for url or logo when there is none)'

// ---------------------------------------------------------------------------------------------
// Reporting

/** Collects the problems of one file. */
class Report {
  /** @param {string} file */
  constructor(file) {
    this.file = file
    /** @type {Problem[]} */
    this.problems = []
  }

  /** @param {Array<string | number>} path @param {string} message */
  add(path, message) {
    this.problems.push({ file: this.file, path: formatPath(path), message })
  }
}

/**
 * `['tokens', 2, 'symbol']` → `tokens[2].symbol`; keys that are not plain words are quoted.
 * @param {Array<string | number>} segments
 */
function formatPath(segments) {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`
    else if (/^[\w$]+$/.test(segment)) out += out ? `.${segment}` : segment
    else out += `[${JSON.stringify(segment)}]`
  }
  return out
}

/**
 * One line per problem: `<file>: <JSON path>: <message>`.
 * @param {Problem} problem
 * @returns {string}
 */
export function formatProblem(problem) {
  return problem.path ? `${problem.file}: ${problem.path}: ${problem.message}` : `${problem.file}: ${problem.message}`
}

// ---------------------------------------------------------------------------------------------
// Field rules shared by both files

/**
 * @param {unknown} value
 * @returns {value is Json}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Length in characters as people count them (code points, so an emoji counts once). @param {string} text */
function characters(text) {
  return [...text].length
}

/**
 * A string of `min` to `max` characters; returns whether it is one.
 * @param {Report} report @param {Array<string | number>} path @param {unknown} value
 * @param {number} min @param {number} max
 */
function checkText(report, path, value, min, max) {
  if (typeof value !== 'string') {
    report.add(path, value === undefined ? `${path.at(-1)} is required` : 'must be a string')
    return false
  }
  const length = characters(value)
  if (length < min || length > max) {
    report.add(path, `must be ${min}-${max} characters (found ${length})`)
    return false
  }
  return true
}

/** @param {Report} report @param {Array<string | number>} path @param {Json} object @param {string[]} allowed */
function checkUnknownFields(report, path, object, allowed) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) report.add([...path, key], `unknown field; allowed fields are ${allowed.join(', ')}`)
  }
}

/**
 * @param {unknown} value
 * @returns {value is Version}
 */
function isVersion(value) {
  if (!isObject(value) || Object.keys(value).length !== 3) return false
  return ['major', 'minor', 'patch'].every((part) => Number.isInteger(value[part]) && /** @type {number} */ (value[part]) >= 0)
}

/** @param {Version} version */
function versionText(version) {
  return `${version.major}.${version.minor}.${version.patch}`
}

/** @param {Report} report @param {unknown} value */
function checkVersion(report, value) {
  if (value === undefined) report.add(['version'], 'version is required')
  // The token-list format writes major.minor.patch as an object, and tags.json follows it.
  else if (!isVersion(value)) report.add(['version'], 'must be {"major": M, "minor": m, "patch": p} with non-negative integers')
}

const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?Z$/

/**
 * An ISO 8601 UTC time that names a real instant (no 30 February, no hour 25).
 * @param {unknown} value
 * @returns {value is string}
 */
function isUtcTimestamp(value) {
  const match = typeof value === 'string' ? ISO_UTC.exec(value) : null
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number)
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day, hour, minute, second))
  return date.getUTCMonth() === (month ?? 0) - 1 && date.getUTCDate() === day && date.getUTCHours() === hour && date.getUTCMinutes() === minute
}

/** @param {Report} report @param {unknown} value */
function checkTimestamp(report, value) {
  if (value === undefined) report.add(['timestamp'], 'timestamp is required')
  else if (!isUtcTimestamp(value)) report.add(['timestamp'], 'must be an ISO 8601 UTC time such as 2026-01-31T12:00:00Z')
}

/**
 * A valid address; reports the checksum problem and returns the checksummed form (null when the
 * value is not an address at all).
 * @param {Report} report @param {Array<string | number>} path @param {unknown} value
 */
function checkAddress(report, path, value) {
  if (!isAddress(value)) {
    report.add(path, 'must be an address: 0x followed by 40 hex digits (42 characters)')
    return null
  }
  const checksummed = toChecksumAddress(value)
  if (value !== checksummed) report.add(path, `${value} is not EIP-55 checksummed (expected ${checksummed})`)
  return checksummed
}

/** @param {string} url */
function isHttpsUrl(url) {
  if (!/^https:\/\/[^\s/?#]+\S*$/.test(url)) return false
  try {
    return new URL(url).protocol === 'https:'
  } catch {
    return false
  }
}

/** @param {FileOptions} options @returns {Context} */
function contextOf(options) {
  if (!options || typeof options.network !== 'string') throw new TypeError('options.network is required, e.g. "testnet"')
  return {
    network: options.network,
    rawBase: (options.rawBase ?? DEFAULT_RAW_BASE).replace(/\/+$/, ''),
    chainId: options.chainId ?? NETWORK_CHAIN_IDS[options.network],
    logoExists: options.logoExists,
  }
}

/**
 * The file a raw logo URL names, relative to the registry root, or null when the URL does not
 * point into `<network>/logos/<kind>/` (one file name, no sub-folder).
 * @param {string} url @param {'tokens' | 'tags'} kind @param {Context} context
 */
function logoFileOf(url, kind, context) {
  const prefix = `${context.rawBase}/${context.network}/logos/${kind}/`
  if (!url.startsWith(prefix)) return null
  let name
  try {
    name = decodeURIComponent(url.slice(prefix.length))
  } catch {
    return null
  }
  if (!name || /[/\\?#]/.test(name) || name === '.' || name === '..') return null
  return `${context.network}/logos/${kind}/${name}`
}

/**
 * Reports a logo that the list names but the folder lacks. Case matters because the raw host is
 * case-sensitive even when the contributor's file system is not.
 * @param {Report} report @param {Array<string | number>} path @param {string} file @param {Context} context
 */
function checkLogoPresent(report, path, file, context) {
  if (context.logoExists && !context.logoExists(file)) report.add(path, `${file} is referenced but missing (case matters)`)
}

// ---------------------------------------------------------------------------------------------
// tokenlist.json

/**
 * Every rule of tokenlist.json, on the parsed file as a whole.
 * @param {unknown} json the parsed tokenlist.json
 * @param {FileOptions} options
 * @returns {Problem[]}
 */
export function validateTokenList(json, options) {
  const context = contextOf(options)
  const report = new Report(`${context.network}/tokenlist.json`)
  if (!isObject(json)) {
    report.add([], 'must be a JSON object')
    return report.problems
  }
  if (context.chainId === undefined) report.add([], `no chain ID is known for network ${context.network}; add it to NETWORK_CHAIN_IDS in scripts/validate.mjs`)
  checkUnknownFields(report, [], json, LIST_FIELDS)
  checkListHeader(report, json)
  const tagIds = checkTagDefinitions(report, json.tags)
  if (!Array.isArray(json.tokens)) {
    report.add(['tokens'], json.tokens === undefined ? 'tokens is required' : 'must be an array of token entries')
    return report.problems
  }
  // The token-list schema that wallets apply rejects an empty list.
  if (json.tokens.length === 0) report.add(['tokens'], 'must hold at least one token')
  json.tokens.forEach((token, index) => checkToken(report, token, index, tagIds, context))
  checkTokensUnique(report, json.tokens)
  return report.problems
}

/**
 * name, version, timestamp and the optional standard fields, with the token-list schema's limits
 * so that any wallet accepts the file unchanged.
 * @param {Report} report @param {Json} list
 */
function checkListHeader(report, list) {
  if (checkText(report, ['name'], list.name, 1, 30) && !/^[\w ]+$/.test(/** @type {string} */ (list.name))) {
    report.add(['name'], 'may hold only letters, digits, _ and spaces (token-list format)')
  }
  checkVersion(report, list.version)
  checkTimestamp(report, list.timestamp)
  if (list.logoURI !== undefined && !(typeof list.logoURI === 'string' && isHttpsUrl(list.logoURI))) {
    report.add(['logoURI'], 'must be an https:// URL')
  }
  if (list.keywords === undefined) return
  if (!Array.isArray(list.keywords) || list.keywords.length > 20) {
    report.add(['keywords'], 'must be an array of at most 20 keywords')
    return
  }
  const keywords = list.keywords
  keywords.forEach((keyword, index) => {
    if (typeof keyword !== 'string' || !/^[\w ]{1,20}$/.test(keyword) || keywords.indexOf(keyword) !== index) {
      report.add(['keywords', index], 'must be a distinct keyword of 1-20 letters, digits, _ or spaces')
    }
  })
}

/**
 * The top-level `tags` that token entries refer to by id; returns the ids.
 * @param {Report} report @param {unknown} tags
 * @returns {Set<string>}
 */
function checkTagDefinitions(report, tags) {
  if (tags === undefined) return new Set()
  if (!isObject(tags)) {
    report.add(['tags'], 'must be an object of tag definitions keyed by id')
    return new Set()
  }
  const ids = Object.keys(tags)
  if (ids.length > 20) report.add(['tags'], `must define at most 20 tags (found ${ids.length})`)
  for (const id of ids) {
    const at = ['tags', id]
    if (!/^\w{1,10}$/.test(id)) report.add(at, 'tag id must be 1-10 letters, digits or _')
    const definition = tags[id]
    if (!isObject(definition)) {
      report.add(at, 'must be an object with name and description')
      continue
    }
    checkUnknownFields(report, at, definition, ['name', 'description'])
    if (checkText(report, [...at, 'name'], definition.name, 1, 20) && !/^[ \w]+$/.test(/** @type {string} */ (definition.name))) {
      report.add([...at, 'name'], 'may hold only letters, digits, _ and spaces (token-list format)')
    }
    if (checkText(report, [...at, 'description'], definition.description, 1, 200) && !/^[ \w.,:]+$/.test(/** @type {string} */ (definition.description))) {
      report.add([...at, 'description'], 'may hold only letters, digits, _, spaces and . , : (token-list format)')
    }
  }
  return new Set(ids)
}

/**
 * @param {Report} report @param {unknown} token @param {number} index
 * @param {Set<string>} tagIds @param {Context} context
 */
function checkToken(report, token, index, tagIds, context) {
  const at = ['tokens', index]
  if (!isObject(token)) {
    report.add(at, 'must be a token entry object')
    return
  }
  checkUnknownFields(report, at, token, TOKEN_FIELDS)
  if (token.chainId === undefined) report.add([...at, 'chainId'], 'chainId is required')
  else if (context.chainId !== undefined && token.chainId !== context.chainId) {
    report.add([...at, 'chainId'], `must be ${context.chainId}, the chain ID of ${context.network} (found ${JSON.stringify(token.chainId)})`)
  }
  const address = checkAddress(report, [...at, 'address'], token.address)
  if (checkText(report, [...at, 'name'], token.name, 1, 40) && /[^\S ]/.test(/** @type {string} */ (token.name))) {
    report.add([...at, 'name'], 'must not contain tabs or line breaks')
  }
  if (checkText(report, [...at, 'symbol'], token.symbol, 1, 20) && /\s/.test(/** @type {string} */ (token.symbol))) {
    report.add([...at, 'symbol'], 'must not contain spaces')
  }
  if (token.decimals === undefined) report.add([...at, 'decimals'], 'decimals is required')
  else if (!Number.isInteger(token.decimals) || /** @type {number} */ (token.decimals) < 0 || /** @type {number} */ (token.decimals) > 255) {
    report.add([...at, 'decimals'], 'must be an integer from 0 to 255')
  }
  checkTokenLogoURI(report, [...at, 'logoURI'], token.logoURI, address, context)
  checkTokenTags(report, [...at, 'tags'], token.tags, tagIds)
  checkExtensions(report, [...at, 'extensions'], token.extensions)
}

/**
 * The logo is the network's own raw file named after the checksummed address; clients take the
 * URL as it is, so it must be exact.
 * @param {Report} report @param {Array<string | number>} path @param {unknown} value
 * @param {string | null} address the checksummed address, null when the entry has none
 * @param {Context} context
 */
function checkTokenLogoURI(report, path, value, address, context) {
  const folder = `${context.rawBase}/${context.network}/logos/tokens/`
  if (typeof value !== 'string') {
    report.add(path, value === undefined ? 'logoURI is required' : 'must be a string')
    return
  }
  const file = logoFileOf(value, 'tokens', context)
  if (!file) {
    report.add(path, `must be a raw URL into ${context.network}/logos/tokens/: ${folder}<checksummed address>.png or .svg`)
    return
  }
  const name = file.slice(file.lastIndexOf('/') + 1)
  if (address && name !== `${address}.png` && name !== `${address}.svg`) {
    report.add(path, `logo file must be named after the checksummed address (expected ${address}.png or ${address}.svg)`)
  }
  checkLogoPresent(report, path, file, context)
}

/** @param {Report} report @param {Array<string | number>} path @param {unknown} tags @param {Set<string>} tagIds */
function checkTokenTags(report, path, tags, tagIds) {
  if (tags === undefined) return
  if (!Array.isArray(tags)) {
    report.add(path, 'must be an array of tag ids')
    return
  }
  if (tags.length > 10) report.add(path, `must hold at most 10 tag ids (found ${tags.length})`)
  tags.forEach((id, index) => {
    if (typeof id !== 'string') report.add([...path, index], 'must be a tag id string')
    else if (!tagIds.has(id)) report.add([...path, index], `tag ${id} is not defined in the list's top-level tags`)
    else if (tags.indexOf(id) !== index) report.add([...path, index], `tag ${id} repeats`)
  })
}

/** @param {Report} report @param {Array<string | number>} path @param {unknown} extensions */
function checkExtensions(report, path, extensions) {
  if (extensions === undefined) return
  if (!isObject(extensions)) {
    report.add(path, 'must be an object of at most 10 values')
    return
  }
  const keys = Object.keys(extensions)
  if (keys.length > 10) report.add(path, `must hold at most 10 values (found ${keys.length})`)
  for (const key of keys) {
    const value = extensions[key]
    if (!/^\w{1,40}$/.test(key)) report.add([...path, key], 'key must be 1-40 letters, digits or _')
    if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))) continue
    // 42 characters is the token-list schema's limit for a string extension (an address fits).
    if (typeof value === 'string' && characters(value) >= 1 && characters(value) <= 42) continue
    report.add([...path, key], 'must be a string of 1-42 characters, a number, a boolean or null')
  }
}

/**
 * Addresses are unique (case-insensitively: the same contract in two cases is one token) and so
 * are symbols (case-insensitively, so that USDC and usdc cannot both carry the verified mark).
 * @param {Report} report @param {unknown[]} tokens
 */
function checkTokensUnique(report, tokens) {
  /** @type {Map<string, number>} */
  const addresses = new Map()
  /** @type {Map<string, number>} */
  const symbols = new Map()
  tokens.forEach((token, index) => {
    if (!isObject(token)) return
    if (isAddress(token.address)) {
      const first = addresses.get(token.address.toLowerCase())
      if (first === undefined) addresses.set(token.address.toLowerCase(), index)
      else report.add(['tokens', index, 'address'], `address ${token.address} repeats tokens[${first}]`)
    }
    if (typeof token.symbol === 'string' && token.symbol) {
      const first = symbols.get(token.symbol.toLowerCase())
      if (first === undefined) symbols.set(token.symbol.toLowerCase(), index)
      else report.add(['tokens', index, 'symbol'], `symbol ${token.symbol} repeats tokens[${first}]`)
    }
  })
}

// ---------------------------------------------------------------------------------------------
// tags.json

/**
 * Every rule of tags.json, on the parsed file as a whole.
 * @param {unknown} json the parsed tags.json
 * @param {FileOptions} options
 * @returns {Problem[]}
 */
export function validateTags(json, options) {
  const context = contextOf(options)
  const report = new Report(`${context.network}/tags.json`)
  if (!isObject(json)) {
    report.add([], 'must be a JSON object')
    return report.problems
  }
  checkUnknownFields(report, [], json, TAGS_FILE_FIELDS)
  checkVersion(report, json.version)
  checkTimestamp(report, json.timestamp)
  const categories = checkCategories(report, json.categories)
  if (!isObject(json.tags)) {
    report.add(['tags'], json.tags === undefined ? 'tags is required' : 'must be an object keyed by checksummed contract address')
    return report.problems
  }
  /** @type {Map<string, string>} */
  const addresses = new Map()
  /** @type {Map<string, string>} */
  const names = new Map()
  for (const [key, tag] of Object.entries(json.tags)) {
    const address = checkAddress(report, ['tags', key], key)
    const first = address && addresses.get(address)
    if (address && first) report.add(['tags', key], `address ${key} repeats tags.${first}`)
    else if (address) addresses.set(address, key)
    checkTag(report, key, tag, categories, names, context)
  }
  return report.problems
}

/**
 * @param {Report} report @param {unknown} categories
 * @returns {Set<string>} the keys defined
 */
function checkCategories(report, categories) {
  if (!isObject(categories)) {
    report.add(['categories'], categories === undefined ? 'categories is required' : 'must be an object of categories keyed by a lowercase key')
    return new Set()
  }
  for (const [key, category] of Object.entries(categories)) {
    const at = ['categories', key]
    if (!/^[a-z][a-z0-9_-]{0,19}$/.test(key)) report.add(at, 'category key must be lowercase (a-z, 0-9, - or _), at most 20 characters')
    if (!isObject(category)) {
      report.add(at, 'must be an object with name and description')
      continue
    }
    checkUnknownFields(report, at, category, ['name', 'description'])
    checkText(report, [...at, 'name'], category.name, 1, 40)
    checkText(report, [...at, 'description'], category.description, 1, 200)
  }
  return new Set(Object.keys(categories))
}

/**
 * @param {Report} report @param {string} key @param {unknown} tag @param {Set<string>} categories
 * @param {Map<string, string>} names lower-case names seen so far, to the key that used it first
 * @param {Context} context
 */
function checkTag(report, key, tag, categories, names, context) {
  const at = ['tags', key]
  if (!isObject(tag)) {
    report.add(at, 'must be a tag object with name, category, project, url and logo')
    return
  }
  checkUnknownFields(report, at, tag, TAG_FIELDS)
  if (checkText(report, [...at, 'name'], tag.name, 1, 40)) {
    const name = /** @type {string} */ (tag.name)
    const first = names.get(name.toLowerCase())
    if (first !== undefined) report.add([...at, 'name'], `name ${name} repeats tags.${first}`)
    else names.set(name.toLowerCase(), key)
  }
  if (typeof tag.category !== 'string') report.add([...at, 'category'], tag.category === undefined ? 'category is required' : 'must be a category key')
  else if (!categories.has(tag.category)) report.add([...at, 'category'], `category ${tag.category} is not defined in categories`)
  checkText(report, [...at, 'project'], tag.project, 1, 40)
  if (!('url' in tag)) report.add([...at, 'url'], `url ${NULLABLE_MESSAGE}`)
  else if (tag.url !== null && !(typeof tag.url === 'string' && isHttpsUrl(tag.url))) report.add([...at, 'url'], 'must be an https:// link or null')
  checkTagLogo(report, [...at, 'logo'], tag, context)
  if (tag.note !== undefined) checkText(report, [...at, 'note'], tag.note, 1, 200)
}

/** @param {Report} report @param {Array<string | number>} path @param {Json} tag @param {Context} context */
function checkTagLogo(report, path, tag, context) {
  if (!('logo' in tag)) {
    report.add(path, `logo ${NULLABLE_MESSAGE}`)
    return
  }
  if (tag.logo === null) return
  const file = typeof tag.logo === 'string' ? logoFileOf(tag.logo, 'tags', context) : null
  if (!file) {
    report.add(path, `must be a raw URL into ${context.network}/logos/tags/ (${context.rawBase}/${context.network}/logos/tags/<file>) or null`)
    return
  }
  checkLogoPresent(report, path, file, context)
}

// ---------------------------------------------------------------------------------------------
// Logo files

/**
 * What the bytes are, whatever the file is called.
 * @param {Uint8Array} bytes
 * @returns {'png' | 'svg' | null}
 */
function sniffLogoType(bytes) {
  const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'png'
  const text = svgText(bytes)
  const prolog = /^\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^[>]*(?:\[[\s\S]*?\])?\s*>\s*)*<svg[\s>]/i
  return prolog.test(text) ? 'svg' : null
}

/** @param {Uint8Array} bytes */
function svgText(bytes) {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}

/**
 * Every rule of one logo file: type from the bytes, file size, PNG dimensions, SVG content and,
 * for token logos, the file name.
 * @param {Uint8Array} bytes the file's content
 * @param {string} fileName its path, used in the problems and for the name rules
 * @param {{ kind: 'tokens' | 'tags' }} options which folder of logos/ the file sits in
 * @returns {Problem[]}
 */
export function checkLogo(bytes, fileName, { kind }) {
  const report = new Report(fileName)
  const name = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1)
  const dot = name.lastIndexOf('.')
  const extension = dot > 0 ? name.slice(dot) : ''
  if (bytes.length > MAX_LOGO_BYTES) report.add([], `${bytes.length} bytes, the limit is ${MAX_LOGO_BYTES}`)
  if (kind === 'tokens') checkTokenLogoName(report, dot > 0 ? name.slice(0, dot) : name, extension)

  const type = sniffLogoType(bytes)
  if (!type) {
    report.add([], 'is neither a PNG nor an SVG (the type is read from the bytes, not from the extension)')
    return report.problems
  }
  // The explorer serves a logo with the content type of its extension, so the two must agree.
  if (extension !== `.${type}`) report.add([], `the bytes are ${type.toUpperCase()} but the file is named ${extension || 'without an extension'}; name it .${type}`)
  if (type === 'png') checkPng(report, bytes)
  else checkSvg(report, svgText(bytes))
  return report.problems
}

/** @param {Report} report @param {string} stem the name without extension @param {string} extension */
function checkTokenLogoName(report, stem, extension) {
  if (isAddress(stem) && stem === toChecksumAddress(stem) && (extension === '.png' || extension === '.svg')) return
  const expected = isAddress(stem) ? ` (expected ${toChecksumAddress(stem)}${extension === '.svg' ? '.svg' : '.png'})` : ''
  report.add([], `logo file must be named after the checksummed address${expected}`)
}

/**
 * Width and height come from the IHDR chunk, which the PNG format puts first, right after the
 * 8-byte signature: length (4), "IHDR" (4), width (4), height (4), big-endian.
 * @param {Report} report @param {Uint8Array} bytes
 */
function checkPng(report, bytes) {
  const chunkType = String.fromCharCode(...bytes.subarray(12, 16))
  if (bytes.length < 24 || chunkType !== 'IHDR') {
    report.add([], 'PNG has no IHDR chunk after its signature; the file is damaged')
    return
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const width = view.getUint32(16)
  const height = view.getUint32(20)
  if (width !== PNG_LOGO_SIZE || height !== PNG_LOGO_SIZE) {
    report.add([], `PNG is ${width}x${height}, it must be ${PNG_LOGO_SIZE}x${PNG_LOGO_SIZE}`)
  }
}

const EXTERNAL_MESSAGE = 'SVG must not reference external resources'

/**
 * A logo is shown inline on the stack's sites, so it must be a plain drawing: nothing that runs,
 * embeds HTML, or makes the browser fetch anything. The scans run over the whole text rather than
 * over parsed elements: a false alarm costs a contributor an edit, a miss could run code.
 * @param {Report} report @param {string} text
 */
function checkSvg(report, text) {
  if (/<!DOCTYPE/i.test(text)) report.add([], 'SVG must not contain a DOCTYPE (entities can pull in other files)')
  if (/<([\w.-]+:)?script[\s/>]/i.test(text)) report.add([], 'SVG must not contain a script element')
  if (/<([\w.-]+:)?foreignObject[\s/>]/i.test(text)) report.add([], 'SVG must not contain a foreignObject element')
  const handlers = new Set([...text.matchAll(/(?:^|[\s"'/])(on[a-z]+)\s*=/gi)].map((m) => m[1]))
  if (handlers.size) report.add([], `SVG must not have event-handler attributes (${[...handlers].join(', ')})`)
  if (/javascript:/i.test(text)) report.add([], 'SVG must not contain javascript: URLs')
  if (hasExternalReference(text)) report.add([], EXTERNAL_MESSAGE)
  checkSvgSquare(report, text)
}

/** Only same-document #fragments and inline raster images are allowed. @param {string} reference */
function isInlineReference(reference) {
  return reference.startsWith('#') || /^data:image\/(png|jpeg|gif|webp)[;,]/i.test(reference)
}

/** @param {string} text */
function hasExternalReference(text) {
  const attributes = text.matchAll(/(?:^|[\s"'/])(?:[\w.-]+:)?(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)
  for (const match of attributes) {
    if (!isInlineReference((match[1] ?? match[2] ?? match[3] ?? '').trim())) return true
  }
  for (const match of text.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))\s*\)/gi)) {
    if (!isInlineReference((match[1] ?? match[2] ?? match[3] ?? '').trim())) return true
  }
  // @import fetches a style sheet; an animation of href can point the drawing elsewhere later.
  return /@import/i.test(text) || /attributeName\s*=\s*["']?(?:[\w.-]+:)?href/i.test(text)
}

/** Logos are square; an SVG needs a viewBox to scale to 20 pixels and to 256. @param {Report} report @param {string} text */
function checkSvgSquare(report, text) {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0] ?? ''
  const viewBox = /\sviewBox\s*=\s*["']([^"']*)["']/i.exec(root)?.[1]
  if (viewBox === undefined) {
    report.add([], 'SVG needs a viewBox on its svg element so that it scales')
    return
  }
  const [, , width, height] = viewBox.trim().split(/[\s,]+/).map(Number)
  if (!(Number(width) > 0) || width !== height) report.add([], `SVG viewBox is "${viewBox}"; a logo must be square`)
}

// ---------------------------------------------------------------------------------------------
// The repository on disk

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
async function inspectRepository(root, options) {
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
 * @typedef {object} ParsedNetwork
 * @property {string} network
 * @property {unknown} [tokenlist] absent when the file is absent or not JSON
 * @property {unknown} [tags]
 */

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

/** @param {number} count @param {string} noun */
function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
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

// ---------------------------------------------------------------------------------------------
// --base: version bumps against a git ref

/** @param {string} root @param {string} ref */
function checkBaseRef(root, ref) {
  try {
    execFileSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    return []
  } catch {
    return [{ file: `--base ${ref}`, path: '', message: `git cannot resolve ${ref} to a commit in ${root}` }]
  }
}

/**
 * The file's content at `ref`, or null when it did not exist there.
 * @param {string} root @param {string} ref @param {string} file relative to root
 */
function gitShow(root, ref, file) {
  try {
    // `ref:./path` is resolved from the working directory, so root may sit inside a larger repo.
    return execFileSync('git', ['show', `${ref}:./${file}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch {
    return null
  }
}

/**
 * @param {string} root @param {ParsedNetwork} parsed @param {string} ref
 * @returns {Problem[]}
 */
function checkVersionBumps(root, parsed, ref) {
  /** @type {Problem[]} */
  const problems = []
  /** @type {Array<[string, unknown, FileKind]>} */
  const files = [['tokenlist.json', parsed.tokenlist, TOKEN_LIST_KIND], ['tags.json', parsed.tags, TAGS_KIND]]
  for (const [name, head, kind] of files) {
    const file = `${parsed.network}/${name}`
    const baseText = head === undefined ? null : gitShow(root, ref, file)
    if (baseText === null) continue // a new file (or one that does not parse): nothing to compare
    let base
    try {
      base = JSON.parse(baseText)
    } catch {
      continue
    }
    problems.push(...compareVersions(file, base, head, kind))
  }
  return problems
}

/**
 * How to tell the entries of a file apart: `entries` keys each entry so that the same token in
 * another letter case is the same entry; `containers` are the fields that hold them.
 * @typedef {{ entries: (json: Json) => Map<string, string>, containers: string[] }} FileKind
 */

/**
 * The change from `base` to `head` and whether the version and timestamp follow it.
 * @param {string} file @param {unknown} base @param {unknown} head @param {FileKind} kind
 * @returns {Problem[]}
 */
function compareVersions(file, base, head, kind) {
  const report = new Report(file)
  if (!isObject(base) || !isObject(head) || !isVersion(base.version) || !isVersion(head.version)) return report.problems
  const change = describeChange(kind.entries(base), kind.entries(head), restOf(base, kind), restOf(head, kind))
  const from = base.version
  const to = head.version
  const bump = bumpOf(from, to)
  if (bump === 'down') report.add(['version'], `version went down from ${versionText(from)} to ${versionText(to)}`)
  else if (bump === 'none' && change.needs !== 'none') {
    report.add(['version'], `the file changed but version stayed ${versionText(to)}; bump it to ${versionText(nextVersion(from, change.needs))} (${change.reason})`)
  } else if (BUMP_RANK[bump] < BUMP_RANK[change.needs]) {
    report.add(['version'], `this change needs a ${change.needs} version bump: ${change.reason} (${versionText(from)} becomes ${versionText(nextVersion(from, change.needs))})`)
  }
  const newer = isUtcTimestamp(base.timestamp) && isUtcTimestamp(head.timestamp) && Date.parse(head.timestamp) > Date.parse(base.timestamp)
  if (bump !== 'none' && !newer) report.add(['timestamp'], 'update timestamp when the version changes')
  return report.problems
}

/** @type {Record<'none' | 'patch' | 'minor' | 'major' | 'down', number>} */
const BUMP_RANK = { none: 0, patch: 1, minor: 2, major: 3, down: -1 }

/** @param {Version} from @param {Version} to @returns {'none' | 'patch' | 'minor' | 'major' | 'down'} */
function bumpOf(from, to) {
  for (const part of /** @type {const} */ (['major', 'minor', 'patch'])) {
    if (to[part] > from[part]) return part
    if (to[part] < from[part]) return 'down'
  }
  return 'none'
}

/** @param {Version} from @param {string} bump */
function nextVersion(from, bump) {
  if (bump === 'major') return { major: from.major + 1, minor: 0, patch: 0 }
  if (bump === 'minor') return { major: from.major, minor: from.minor + 1, patch: 0 }
  return { major: from.major, minor: from.minor, patch: from.patch + 1 }
}

/**
 * Removed entries need a major bump, added ones a minor bump, anything else that changed a patch.
 * @param {Map<string, string>} before @param {Map<string, string>} after
 * @param {string} restBefore @param {string} restAfter
 * @returns {{ needs: 'none' | 'patch' | 'minor' | 'major', reason: string }}
 */
function describeChange(before, after, restBefore, restAfter) {
  const removed = [...before.keys()].filter((key) => !after.has(key))
  const added = [...after.keys()].filter((key) => !before.has(key))
  const changed = [...after.keys()].filter((key) => before.has(key) && before.get(key) !== after.get(key))
  if (removed.length) return { needs: 'major', reason: `removed ${removed.join(', ')}` }
  if (added.length) return { needs: 'minor', reason: `added ${added.join(', ')}` }
  if (changed.length) return { needs: 'patch', reason: `changed ${changed.join(', ')}` }
  if (restBefore !== restAfter) return { needs: 'patch', reason: 'changed the file header' }
  return { needs: 'none', reason: '' }
}

/** JSON with sorted keys, so that reordering fields is not a change. @param {unknown} value @returns {string} */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isObject(value)) return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`
  return JSON.stringify(value) ?? 'null'
}

/** The entries of a token list: tokens by chain and address, tag definitions by id. @param {Json} list */
function tokenListEntries(list) {
  const entries = new Map()
  for (const token of Array.isArray(list.tokens) ? list.tokens : []) {
    if (isObject(token)) entries.set(`token ${token.chainId}:${String(token.address).toLowerCase()}`, canonical(token))
  }
  for (const [id, definition] of Object.entries(isObject(list.tags) ? list.tags : {})) entries.set(`tag ${id}`, canonical(definition))
  return entries
}

/** The entries of tags.json: tags by address and categories by key. @param {Json} file */
function tagEntries(file) {
  const entries = new Map()
  for (const [address, tag] of Object.entries(isObject(file.tags) ? file.tags : {})) entries.set(`tag ${address.toLowerCase()}`, canonical(tag))
  for (const [key, category] of Object.entries(isObject(file.categories) ? file.categories : {})) entries.set(`category ${key}`, canonical(category))
  return entries
}

/** @type {FileKind} */
const TOKEN_LIST_KIND = { entries: tokenListEntries, containers: ['tokens', 'tags'] }
/** @type {FileKind} */
const TAGS_KIND = { entries: tagEntries, containers: ['tags', 'categories'] }

/** Everything that is not an entry, version or timestamp. @param {Json} json @param {FileKind} kind */
function restOf(json, kind) {
  const skip = ['version', 'timestamp', ...kind.containers]
  return canonical(Object.fromEntries(Object.entries(json).filter(([key]) => !skip.includes(key))))
}

// ---------------------------------------------------------------------------------------------
// --rpc: the entries against the chain

const SELECTORS = { decimals: '0x313ce567', name: '0x06fdde03', symbol: '0x95d89b41' }

/** A JSON-RPC error answer (a revert, an unknown method), as opposed to an unreachable node. */
class RpcAnswerError extends Error {}

/**
 * @param {string} url
 * @returns {(method: string, params: unknown[]) => Promise<unknown>}
 */
function rpcClient(url) {
  let id = 0
  return async (method, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    })
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${url}`)
    const body = /** @type {{ result?: unknown, error?: { message?: string } }} */ (await response.json())
    if (body.error) throw new RpcAnswerError(body.error.message ?? JSON.stringify(body.error))
    return body.result
  }
}

/**
 * Every token has code, and its decimals() (and name() and symbol(), where they answer) match the
 * entry; every tagged address is a contract.
 * @param {string} url @param {ParsedNetwork} parsed @param {Omit<Context, 'logoExists'>} context
 * @returns {Promise<Problem[]>}
 */
async function checkOnChain(url, parsed, context) {
  if (context.chainId === undefined) {
    return [{ file: `--rpc ${url}`, path: '', message: `no chain ID is known for network ${context.network}, so the node cannot be checked` }]
  }
  const call = rpcClient(url)
  try {
    const chainId = Number(await call('eth_chainId', []))
    if (chainId !== context.chainId) {
      return [{ file: `--rpc ${url}`, path: '', message: `the node serves chain ${chainId}, not ${context.network} (${context.chainId})` }]
    }
    const tokens = isObject(parsed.tokenlist) && Array.isArray(parsed.tokenlist.tokens) ? parsed.tokenlist.tokens : []
    const tokenProblems = await mapLimit(tokens, 8, (token, index) => checkTokenOnChain(call, `${parsed.network}/tokenlist.json`, token, index))
    const tags = isObject(parsed.tags) && isObject(parsed.tags.tags) ? Object.keys(parsed.tags.tags) : []
    const tagProblems = await mapLimit(tags, 8, async (address) => {
      if (!isAddress(address) || (await hasCode(call, address))) return []
      const message = `${address} has no contract code on chain ${chainId}; only contracts are tagged`
      return [{ file: `${parsed.network}/tags.json`, path: formatPath(['tags', address]), message }]
    })
    return [...tokenProblems.flat(), ...tagProblems.flat()]
  } catch (error) {
    return [{ file: `--rpc ${url}`, path: '', message: `the node did not answer: ${describeError(error)}` }]
  }
}

/** An error's message with its cause, since fetch on Node.js says only "fetch failed". @param {unknown} error */
function describeError(error) {
  const { message, cause } = /** @type {{ message?: string, cause?: { code?: string, message?: string } }} */ (error ?? {})
  const detail = cause?.code ?? cause?.message
  return detail ? `${message} (${detail})` : String(message ?? error)
}

/**
 * @param {(method: string, params: unknown[]) => Promise<unknown>} call
 * @param {string} file @param {unknown} token @param {number} index
 * @returns {Promise<Problem[]>}
 */
async function checkTokenOnChain(call, file, token, index) {
  const report = new Report(file)
  if (!isObject(token) || !isAddress(token.address)) return report.problems
  const at = ['tokens', index]
  const address = token.address
  if (!(await hasCode(call, address))) {
    report.add([...at, 'address'], `${address} has no contract code on this chain`)
    return report.problems
  }
  const answer = await ethCall(call, address, SELECTORS.decimals)
  const decimals = answer && /^0x[0-9a-fA-F]{64}/.test(answer) ? BigInt(answer.slice(0, 66)) : null
  if (decimals === null) report.add([...at, 'decimals'], 'the contract does not answer decimals()')
  else if (Number.isInteger(token.decimals) && decimals !== BigInt(/** @type {number} */ (token.decimals))) {
    report.add([...at, 'decimals'], `is ${token.decimals} but the contract's decimals() returns ${decimals}`)
  }
  for (const field of /** @type {const} */ (['name', 'symbol'])) {
    const answer = decodeString(await ethCall(call, address, SELECTORS[field]))
    if (answer !== null && answer !== token[field]) {
      report.add([...at, field], `is ${JSON.stringify(token[field])} but the contract's ${field}() returns ${JSON.stringify(answer)}`)
    }
  }
  return report.problems
}

/** @param {(method: string, params: unknown[]) => Promise<unknown>} call @param {string} address */
async function hasCode(call, address) {
  const code = await call('eth_getCode', [address, 'latest'])
  return typeof code === 'string' && code !== '0x' && code !== '0x0'
}

/**
 * The raw answer of a view call, or null when the contract reverts or has no such function.
 * @param {(method: string, params: unknown[]) => Promise<unknown>} call @param {string} to @param {string} data
 */
async function ethCall(call, to, data) {
  try {
    const result = await call('eth_call', [{ to, data }, 'latest'])
    return typeof result === 'string' && result.length > 2 ? result : null
  } catch (error) {
    if (error instanceof RpcAnswerError) return null
    throw error
  }
}

/**
 * An ABI-encoded string answer, or a bytes32 one (as some early tokens return), or null.
 * @param {string | null} hex
 */
function decodeString(hex) {
  if (!hex || !/^0x([0-9a-fA-F]{2})*$/.test(hex)) return null
  const bytes = Uint8Array.from(hex.slice(2).match(/../g) ?? [], (byte) => parseInt(byte, 16))
  const word = (/** @type {number} */ at) => (at + 32 <= bytes.length ? Number(BigInt(`0x${hex.slice(2 + at * 2, 2 + (at + 32) * 2)}`)) : -1)
  try {
    if (bytes.length === 32) return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/\0+$/, '')
    const offset = word(0)
    const length = offset >= 0 ? word(offset) : -1
    if (length < 0 || offset + 32 + length > bytes.length) return null
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(offset + 32, offset + 32 + length))
  } catch {
    return null
  }
}

/**
 * Runs `task` over `items` with at most `limit` at a time, so that a long list does not open
 * hundreds of connections to the node at once; the results keep the order of the items.
 * @template T, R
 * @param {T[]} items @param {number} limit @param {(item: T, index: number) => Promise<R>} task
 * @returns {Promise<R[]>}
 */
async function mapLimit(items, limit, task) {
  /** @type {R[]} */
  const results = []
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(/** @type {T} */ (items[index]), index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

// ---------------------------------------------------------------------------------------------
// Command line

const USAGE = `usage: node scripts/validate.mjs [root] [options]

Checks every network folder of the registry (default: the folder this script lives in).

  --network NAME     only this network folder (default: every folder with a tokenlist.json or tags.json)
  --raw-base URL     the raw URL of the repository (default ${DEFAULT_RAW_BASE})
  --rpc URL          also check the tokens and tagged contracts on a node
  --base REF         also check the version bumps against git REF, as CI does (e.g. origin/main)
  --help             this text`

/**
 * Runs the validator with command-line arguments and returns the exit code: 0 when there is no
 * problem, 1 when there is any, 2 for a usage error.
 * @param {string[]} [argv] the arguments after the script name
 * @returns {Promise<number>}
 */
export async function main(argv = process.argv.slice(2)) {
  let args
  try {
    args = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { network: { type: 'string' }, 'raw-base': { type: 'string' }, rpc: { type: 'string' }, base: { type: 'string' }, help: { type: 'boolean' } },
    })
  } catch (error) {
    console.error(`${/** @type {Error} */ (error).message}\n\n${USAGE}`)
    return 2
  }
  if (args.values.help) {
    console.log(USAGE)
    return 0
  }
  if (args.positionals.length > 1) {
    console.error(`one root folder at most, got ${args.positionals.join(' ')}\n\n${USAGE}`)
    return 2
  }
  const root = args.positionals[0] ?? fileURLToPath(new URL('..', import.meta.url))
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    console.error(`${root}: no such folder; give the registry repository's root folder\n\n${USAGE}`)
    return 2
  }
  const options = { network: args.values.network, rawBase: args.values['raw-base'], rpc: args.values.rpc, base: args.values.base }
  const { problems, checked } = await inspectRepository(root, options)

  for (const problem of problems) console.log(formatProblem(problem))
  const extras = [options.base && `version bumps against ${options.base}`, options.rpc && `the chain at ${options.rpc}`].filter(Boolean)
  console.log(`checked ${checked.length ? checked.join('; ') : 'no network folder with a tokenlist.json or tags.json'}${extras.length ? `; ${extras.join(' and ')}` : ''}`)
  console.log(problems.length ? `FAILED: ${plural(problems.length, 'problem')}` : 'OK: no problems')
  return problems.length ? 1 : 0
}

// Run only when executed as a script, not when imported. argv[1] is compared rather than
// import.meta.url, because in a compiled Bun binary the two can name the same file.
if (/(^|[\\/])validate\.mjs$/.test(process.argv[1] ?? '')) {
  main().then(
    (code) => {
      process.exitCode = code
    },
    (error) => {
      console.error(error)
      process.exitCode = 2
    },
  )
}

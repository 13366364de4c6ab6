// @ts-check
/**
 * The rules of a network's tokenlist.json: the token-list format's own limits, so that any wallet
 * accepts the file unchanged, and the registry's (one chain, logos named after the checksummed
 * address in the network's own folder, unique addresses and symbols).
 */
import { characters, checkAddress, checkText, checkTimestamp, checkUnknownFields, checkVersion, isHttpsUrl, isObject } from './fields.mjs'
import { isAddress } from './keccak.mjs'
import { checkLogoPresent, contextOf, logoFileOf } from './network.mjs'
import { Report } from './problems.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./fields.mjs').Json} Json */
/** @typedef {import('./network.mjs').FileOptions} FileOptions */
/** @typedef {import('./network.mjs').Context} Context */

const LIST_FIELDS = ['name', 'version', 'timestamp', 'tokens', 'tags', 'keywords', 'logoURI']
const TOKEN_FIELDS = ['chainId', 'address', 'name', 'symbol', 'decimals', 'logoURI', 'tags', 'extensions']

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
  if (context.chainId === undefined) report.add([], `no chain ID is known for network ${context.network}; add it to NETWORK_CHAIN_IDS in scripts/network.mjs`)
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

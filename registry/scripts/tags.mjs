// @ts-check
/**
 * The rules of a network's tags.json: readable labels for contracts, keyed by checksummed
 * address, each in a category the file defines.
 */
import { checkAddress, checkText, checkTimestamp, checkUnknownFields, checkVersion, isHttpsUrl, isObject } from './fields.mjs'
import { checkLogoPresent, contextOf, logoFileOf } from './network.mjs'
import { Report } from './problems.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./fields.mjs').Json} Json */
/** @typedef {import('./network.mjs').FileOptions} FileOptions */
/** @typedef {import('./network.mjs').Context} Context */

const TAGS_FILE_FIELDS = ['version', 'timestamp', 'categories', 'tags']
const TAG_FIELDS = ['name', 'category', 'project', 'url', 'logo', 'note']
const NULLABLE_MESSAGE = 'is required (use null for url or logo when there is none)'

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

// @ts-check
/**
 * Field rules that tokenlist.json and tags.json share: text lengths, unknown fields, versions,
 * timestamps, addresses and links.
 */
import { isAddress, toChecksumAddress } from './keccak.mjs'

/** @typedef {import('./problems.mjs').Report} Report */
/** @typedef {Record<string, unknown>} Json */
/** @typedef {{ major: number, minor: number, patch: number }} Version */

/**
 * @param {unknown} value
 * @returns {value is Json}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Length in characters as people count them (code points, so an emoji counts once). @param {string} text */
export function characters(text) {
  return [...text].length
}

/**
 * A string of `min` to `max` characters; returns whether it is one.
 * @param {Report} report @param {Array<string | number>} path @param {unknown} value
 * @param {number} min @param {number} max
 */
export function checkText(report, path, value, min, max) {
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
export function checkUnknownFields(report, path, object, allowed) {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) report.add([...path, key], `unknown field; allowed fields are ${allowed.join(', ')}`)
  }
}

/**
 * @param {unknown} value
 * @returns {value is Version}
 */
export function isVersion(value) {
  if (!isObject(value) || Object.keys(value).length !== 3) return false
  return ['major', 'minor', 'patch'].every((part) => Number.isInteger(value[part]) && /** @type {number} */ (value[part]) >= 0)
}

/** @param {Version} version */
export function versionText(version) {
  return `${version.major}.${version.minor}.${version.patch}`
}

/** @param {Report} report @param {unknown} value */
export function checkVersion(report, value) {
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
export function isUtcTimestamp(value) {
  const match = typeof value === 'string' ? ISO_UTC.exec(value) : null
  if (!match) return false
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number)
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day, hour, minute, second))
  return date.getUTCMonth() === (month ?? 0) - 1 && date.getUTCDate() === day && date.getUTCHours() === hour && date.getUTCMinutes() === minute
}

/** @param {Report} report @param {unknown} value */
export function checkTimestamp(report, value) {
  if (value === undefined) report.add(['timestamp'], 'timestamp is required')
  else if (!isUtcTimestamp(value)) report.add(['timestamp'], 'must be an ISO 8601 UTC time such as 2026-01-31T12:00:00Z')
}

/**
 * A valid address; reports the checksum problem and returns the checksummed form (null when the
 * value is not an address at all).
 * @param {Report} report @param {Array<string | number>} path @param {unknown} value
 */
export function checkAddress(report, path, value) {
  if (!isAddress(value)) {
    report.add(path, 'must be an address: 0x followed by 40 hex digits (42 characters)')
    return null
  }
  const checksummed = toChecksumAddress(value)
  if (value !== checksummed) report.add(path, `${value} is not EIP-55 checksummed (expected ${checksummed})`)
  return checksummed
}

/** @param {string} url */
export function isHttpsUrl(url) {
  if (!/^https:\/\/[^\s/?#]+\S*$/.test(url)) return false
  try {
    return new URL(url).protocol === 'https:'
  } catch {
    return false
  }
}

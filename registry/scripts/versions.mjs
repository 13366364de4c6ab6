// @ts-check
/**
 * --base: whether each list's version and timestamp follow what changed since a git ref. Removed
 * entries need a major bump, added ones a minor bump, any other change a patch bump.
 */
import { execFileSync } from 'node:child_process'
import { isObject, isUtcTimestamp, isVersion, versionText } from './fields.mjs'
import { Report } from './problems.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./fields.mjs').Json} Json */
/** @typedef {import('./fields.mjs').Version} Version */
/** @typedef {import('./network.mjs').ParsedNetwork} ParsedNetwork */

/** @param {string} root @param {string} ref */
export function checkBaseRef(root, ref) {
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
export function checkVersionBumps(root, parsed, ref) {
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

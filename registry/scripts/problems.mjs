// @ts-check
/**
 * A problem is one broken rule; every check collects them in a Report, and the command line
 * prints each as one line.
 */

/**
 * One broken rule. `file` is relative to the registry root with / separators
 * (`testnet/tokenlist.json`), `path` is a JSON path inside it (`tokens[2].symbol`), empty for
 * the file as a whole.
 * @typedef {{ file: string, path: string, message: string }} Problem
 */

/** Collects the problems of one file. */
export class Report {
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
export function formatPath(segments) {
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

/** `1 token`, `3 tokens`. @param {number} count @param {string} noun */
export function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

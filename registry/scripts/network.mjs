// @ts-check
/**
 * What a network folder is: its chain ID, where its raw files are published, and which logo file
 * a raw URL into it names.
 */

/** @typedef {import('./problems.mjs').Report} Report */

/** Where the raw repository files are published; logoURI and tag logo values start with it. */
export const DEFAULT_RAW_BASE = 'https://raw.githubusercontent.com/stack-chain/registry/main'

/** The chain ID every entry of a network's list must carry. mainnet is added when it launches. */
export const NETWORK_CHAIN_IDS = Object.freeze(/** @type {Record<string, number>} */ ({ testnet: 78270 }))

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

/** @typedef {{ network: string, rawBase: string, chainId: number | undefined, logoExists?: (relativePath: string) => boolean }} Context */

/**
 * The lists of one network folder as read from disk, for the checks that compare them with
 * something else (git history, the chain).
 * @typedef {object} ParsedNetwork
 * @property {string} network
 * @property {unknown} [tokenlist] absent when the file is absent or not JSON
 * @property {unknown} [tags]
 */

/** @param {FileOptions} options @returns {Context} */
export function contextOf(options) {
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
export function logoFileOf(url, kind, context) {
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
export function checkLogoPresent(report, path, file, context) {
  if (context.logoExists && !context.logoExists(file)) report.add(path, `${file} is referenced but missing (case matters)`)
}

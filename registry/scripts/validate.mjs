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
 *
 * This file is the command line and the library's one entry point; the rules live beside it, one
 * concern a file: problems.mjs (reporting), fields.mjs (field rules both lists share),
 * network.mjs (chain IDs, raw URLs), tokenlist.mjs, tags.mjs, logos.mjs, repository.mjs (the
 * folder on disk), versions.mjs (--base), chain.mjs (--rpc) and keccak.mjs. Their imports are
 * static so that a bundler (the explorer's compiled binary) follows them.
 */
import { existsSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_RAW_BASE } from './network.mjs'
import { formatProblem, plural } from './problems.mjs'
import { inspectRepository } from './repository.mjs'

export { isAddress, keccak256, toChecksumAddress } from './keccak.mjs'
export { checkLogo, MAX_LOGO_BYTES, PNG_LOGO_SIZE } from './logos.mjs'
export { DEFAULT_RAW_BASE, NETWORK_CHAIN_IDS } from './network.mjs'
export { formatProblem } from './problems.mjs'
export { validateRepository } from './repository.mjs'
export { validateTags } from './tags.mjs'
export { validateTokenList } from './tokenlist.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./network.mjs').FileOptions} FileOptions */
/** @typedef {import('./repository.mjs').RepositoryOptions} RepositoryOptions */

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

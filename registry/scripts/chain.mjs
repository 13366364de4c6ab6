// @ts-check
/**
 * --rpc: the entries against a node of the network's chain. Every token has code and its
 * decimals() (and name() and symbol(), where they answer) match the entry; every tagged address
 * is a contract. It uses the global fetch, which Node.js 20+ and Bun both have.
 */
import { isObject } from './fields.mjs'
import { isAddress } from './keccak.mjs'
import { Report, formatPath } from './problems.mjs'

/** @typedef {import('./problems.mjs').Problem} Problem */
/** @typedef {import('./network.mjs').Context} Context */
/** @typedef {import('./network.mjs').ParsedNetwork} ParsedNetwork */

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
export async function checkOnChain(url, parsed, context) {
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

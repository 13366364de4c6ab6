import { RpcError } from '../chain/rpc.ts'
import { NodeUnreachableError } from '../errors.ts'
import { parseAddressAnyCase } from '../eth/address.ts'
import { blob, parseHash } from '../eth/bytes.ts'
import type { BlockRange, ListPage } from '../spool/read.ts'
import { notOk, type EtherscanAnswer } from './answer.ts'
import type { Action, Fields } from './dispatch.ts'

// Etherscan's parameters as its API checks them, and its refusals in its own words: each reader
// returns the value or throws a Refusal, which `refusing` turns into the NOTOK answer.

/** A parameter Etherscan would refuse: `message` is the answer's `result`. */
export class Refusal extends Error {}

/**
 * An action whose refusals are answers, not errors: a Refusal, and what the node says or fails
 * to say where only the node knows (a balance with the node away), each as Etherscan's NOTOK.
 */
export function refusing(action: (fields: Fields) => EtherscanAnswer | Promise<EtherscanAnswer>): Action {
  return async (fields) => {
    try {
      return await action(fields)
    } catch (error) {
      if (error instanceof Refusal) return notOk(error.message)
      if (error instanceof NodeUnreachableError) return notOk(NODE_AWAY)
      if (error instanceof RpcError) return notOk(`Error! ${error.nodeMessage}`)
      throw error
    }
  }
}

export const NODE_AWAY = 'Error! The node cannot be reached; only what the spool holds can be answered now'

export const INVALID_ADDRESS = 'Error! Invalid address format'
export const RESULT_WINDOW = 'Result window is too large, PageNo x Offset size must be less than or equal to 10000'
/** Etherscan's cap on page × offset: no list goes deeper than this. */
export const RESULT_WINDOW_ROWS = 10_000
/** The highest block number a list's endblock names by default (Etherscan's own default). */
export const LAST_BLOCK = 99_999_999

/** An address in any case, with or without its checksum, as 20 bytes. */
export function addressParam(fields: Fields, name = 'address'): Uint8Array {
  const address = parseAddressAnyCase(fields.get(name) ?? '')
  if (!address || !(fields.get(name) ?? '').toLowerCase().startsWith('0x')) throw new Refusal(INVALID_ADDRESS)
  return blob(address)
}

/** As addressParam, or null when the parameter is absent or empty. */
export function optionalAddress(fields: Fields, name: string): Uint8Array | null {
  return (fields.get(name) ?? '') === '' ? null : addressParam(fields, name)
}

/** A transaction hash: `0x` and 64 hex digits. */
export function hashParam(fields: Fields, name = 'txhash'): Uint8Array {
  const hash = parseHash(fields.get(name) ?? '')
  if (!hash) throw new Refusal('Error! Invalid transaction hash')
  return blob(hash)
}

const DECIMAL = /^\d{1,15}$/

/** A non-negative decimal integer (at most 15 digits), or `fallback` when absent or empty. */
export function integerParam(fields: Fields, name: string, fallback: number, refusal: string): number {
  const text = (fields.get(name) ?? '').trim()
  if (text === '') return fallback
  if (!DECIMAL.test(text)) throw new Refusal(refusal)
  return Number(text)
}

/** A block number in decimal, or `latest` for `head`; `fallback` when absent. */
export function blockParam(fields: Fields, name: string, fallback: number, head: number): number {
  const text = (fields.get(name) ?? '').trim()
  if (text === 'latest') return head
  return integerParam(fields, name, fallback, `Error! Invalid ${name}`)
}

/** `startblock` to `endblock` (0 and the last block by default). */
export function blockRange(fields: Fields, head: number, names: [string, string] = ['startblock', 'endblock']): BlockRange {
  const first = Math.min(blockParam(fields, names[0], 0, head), LAST_BLOCK + 1)
  const last = blockParam(fields, names[1], LAST_BLOCK, head)
  return { first, last: Math.max(-1, Math.min(last, LAST_BLOCK)) }
}

/**
 * `page` and `offset` (rows per page) with `sort` (`asc` by default, or `desc`). No page or no
 * offset is the whole window from the start, as Etherscan answers; page × offset past the
 * window is Etherscan's refusal.
 */
export function listPage(fields: Fields, maxOffset = RESULT_WINDOW_ROWS): ListPage {
  const page = integerParam(fields, 'page', 0, 'Error! Invalid page number')
  const offset = integerParam(fields, 'offset', 0, 'Error! Invalid offset number')
  const sort = (fields.get('sort') ?? 'asc').toLowerCase()
  if (sort !== 'asc' && sort !== 'desc') throw new Refusal('Error! Invalid sort order')
  const newestFirst = sort === 'desc'
  if (page === 0 || offset === 0) return { limit: Math.min(offset || maxOffset, maxOffset), offset: 0, newestFirst }
  if (page * offset > RESULT_WINDOW_ROWS) throw new Refusal(RESULT_WINDOW)
  const limit = Math.min(offset, maxOffset)
  return { limit, offset: (page - 1) * limit, newestFirst }
}

/** `tag`: only `latest` is kept by the lists' balance actions, as on Etherscan's free API. */
export function latestTag(fields: Fields): void {
  const tag = fields.get('tag') ?? 'latest'
  if (tag !== 'latest') throw new Refusal('Error! Invalid tag, only latest is supported')
}

import type { Hex } from 'viem'
import type { ContractBook } from '../contracts/book.ts'
import { decodeInput, decodeWith, type DecodedCall, type DecodeWith } from '../decode/decode.ts'
import { hex } from '../eth/bytes.ts'
import type { TxInBlock } from '../spool/read.ts'

// How Etherscan writes a list row: numbers as decimal strings, addresses and hashes lower-case
// hex, an absent address as "".

/** An address or hash BLOB as lower-case hex, or "" for none. */
export const lower = (bytes: Uint8Array | null | undefined): string => hex(bytes) ?? ''
/** A quantity as Etherscan's getLogs and the proxy write it: 0x-hex. */
export const quantityHex = (value: number | bigint | string): string => `0x${BigInt(value).toString(16)}`
/** Confirmations of a block at `head`: the block itself counts one. */
export const confirmations = (head: number, blockNumber: number): string => String(Math.max(0, head - blockNumber + 1))
/** The price a transaction paid per gas (the effective price once it is known). */
export const paidGasPrice = (tx: Pick<TxInBlock, 'effectiveGasPrice' | 'gasPrice'>): string => tx.effectiveGasPrice ?? tx.gasPrice ?? '0'

/**
 * A call as Etherscan names its function, `transfer(address to, uint256 value)`: the types of
 * the decoder's canonical signature, each with its parameter's name where the ABI gives one.
 */
export function functionName(call: Pick<DecodedCall, 'name' | 'signature' | 'args'>): string {
  const inner = call.signature.slice(call.signature.indexOf('(') + 1, call.signature.lastIndexOf(')'))
  const types: string[] = []
  let depth = 0
  let from = 0
  for (let at = 0; at <= inner.length; at++) {
    const char = inner[at]
    if (char === '(') depth++
    else if (char === ')') depth--
    else if ((char === ',' && depth === 0) || at === inner.length) {
      if (at > from) types.push(inner.slice(from, at))
      from = at + 1
    }
  }
  const named = types.map((type, index) => {
    const name = call.args[index]?.name
    return name && name !== `arg${index}` ? `${type} ${name}` : type
  })
  return `${call.name}(${named.join(', ')})`
}

/** A call as a list row has it already: its recipient and input in lower-case hex ("" for no recipient). */
export type RowCall = { to: string; input: string }

/** The key functionNames answers a call under: its recipient and selector. */
export const callKey = ({ to, input }: RowCall): string => `${to}:${input.slice(0, 10)}`

/**
 * The names of the functions called by a page of transactions, by recipient and selector, with
 * the one decoder: the ABI the contract book knows of the recipient (a verified contract's, the
 * stack's own), then the fixed table of signatures; "" for the rest. Each recipient is looked up
 * once a page, each recipient's selector decoded once.
 */
export async function functionNames(book: ContractBook, calls: RowCall[]): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  const tried = new Set<string>()
  const named = calls.filter((call) => call.to !== '' && call.input.length >= 10)
  // The book may ask the node (a proxy, the same code as a verified contract): every recipient at once.
  const recipients = [...new Set(named.map((call) => call.to))]
  const known = await Promise.all(recipients.map((to) => book.lookup(to)))
  const byRecipient = new Map<string, DecodeWith>(recipients.map((to, index) => [to, decodeWith(known[index])]))
  for (const call of named) {
    const key = callKey(call)
    if (tried.has(key)) continue
    tried.add(key)
    const decoded = decodeInput(call.input as Hex, { using: byRecipient.get(call.to)! })
    if (decoded) names.set(key, functionName(decoded))
  }
  return names
}

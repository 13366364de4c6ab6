import { toFunctionSelector, type AbiFunction } from 'viem'
import type { ContractBook } from '../contracts/book.ts'
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

/** A function as Etherscan names it: `transfer(address to, uint256 value)`. */
export function functionName(item: AbiFunction): string {
  return `${item.name}(${item.inputs.map((input) => (input.name ? `${input.type} ${input.name}` : input.type)).join(', ')})`
}

/**
 * The names of the functions called by a page of transactions, by recipient and selector, from
 * the ABIs the contract book knows (verified contracts, the stack's own); "" for the rest. Each
 * recipient is looked up once a page.
 */
export async function functionNames(book: ContractBook, calls: Array<{ to: Uint8Array | null; selector: Uint8Array | null }>): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  const byRecipient = new Map<string, Map<string, string> | null>()
  for (const { to, selector } of calls) {
    if (!to || !selector || selector.length < 4) continue
    const recipient = lower(to)
    if (!byRecipient.has(recipient)) {
      const known = await book.lookup(recipient)
      const abi = [...(known?.abi ?? []), ...(known?.proxy?.target?.abi ?? [])]
      const functions = abi.filter((item): item is AbiFunction => item.type === 'function')
      byRecipient.set(recipient, functions.length > 0 ? new Map(functions.map((item) => [toFunctionSelector(item), functionName(item)])) : null)
    }
    const name = byRecipient.get(recipient)?.get(lower(selector))
    if (name) names.set(`${recipient}:${lower(selector)}`, name)
  }
  return names
}

/** The key functionNames answers a call under. */
export const callKey = (to: Uint8Array | null, selector: Uint8Array | null): string => `${lower(to)}:${lower(selector)}`

import { decodeErrorResult, type Abi, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { jsonSafe } from '../../eth/quantity.ts'

/**
 * Why a call reverted, in words: `error` a `require` or `revert` with a message (`Error(string)`),
 * `panic` a `Panic(uint256)` with its meaning, `custom` an error of the contract's ABI by name
 * and arguments, `unknown` return data no ABI given reads (its selector and the raw data), `empty`
 * a revert with no data (a bare `revert()`, `require` without a message), `failed` a call that
 * stopped without reverting (out of gas), in the node's words.
 */
export type RevertReason = {
  kind: 'error' | 'panic' | 'custom' | 'unknown' | 'empty' | 'failed'
  message: string
  name?: string
  signature?: string
  args?: Array<{ name: string; type: string; value: unknown }>
  selector?: Hex
  data?: Hex
}

/** What the compiler's panic codes mean (the Solidity documentation's list). */
const PANICS: Record<number, string> = {
  0x00: 'a generic compiler panic',
  0x01: 'an assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'a value out of range converted to an enum',
  0x22: 'a storage byte array incorrectly encoded',
  0x31: 'pop() on an empty array',
  0x32: 'an array index out of bounds',
  0x41: 'too much memory allocated, or an array too large',
  0x51: 'a call to a zero-initialized internal function',
}

/** The reason of `data`, a reverted call's return data, read with the ABIs given (first that decodes wins). */
export function decodeRevert(data: Hex | null | undefined, abis: readonly Abi[] = []): RevertReason {
  if (!data || data === '0x') return { kind: 'empty', message: 'reverted without a reason' }
  const selector = data.length >= 10 ? (data.slice(0, 10).toLowerCase() as Hex) : undefined
  // viem reads Error(string) and Panic(uint256) with any ABI, the empty one included.
  for (const abi of abis.length > 0 ? abis : [[] as Abi]) {
    let decoded: { abiItem: Abi[number]; args?: readonly unknown[]; errorName: string }
    try {
      decoded = decodeErrorResult({ abi, data })
    } catch {
      continue
    }
    const values = decoded.args ?? []
    if (decoded.errorName === 'Error') return { kind: 'error', message: String(values[0]), name: 'Error', selector, data }
    if (decoded.errorName === 'Panic') {
      const code = Number(values[0])
      const meaning = PANICS[code] ?? 'an unknown panic code'
      return { kind: 'panic', message: `panic 0x${code.toString(16).padStart(2, '0')}: ${meaning}`, name: 'Panic', args: [{ name: 'code', type: 'uint256', value: String(values[0]) }], selector, data }
    }
    const inputs = decoded.abiItem.type === 'error' ? decoded.abiItem.inputs : []
    const args = inputs.map((input, index) => ({ name: input.name || `arg${index}`, type: input.type, value: jsonSafe(values[index]) }))
    const shown = args.map((arg) => (typeof arg.value === 'string' ? arg.value : JSON.stringify(arg.value))).join(', ')
    return { kind: 'custom', message: `${decoded.errorName}(${shown})`, name: decoded.errorName, signature: formatAbiItem(decoded.abiItem), args, selector, data }
  }
  return { kind: 'unknown', message: selector ? `reverted with error ${selector}, which no known ABI names` : 'reverted with data that is no error', selector, data }
}

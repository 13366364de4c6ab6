import { decodeAbiParameters, type Hex } from 'viem'
import { decodeCustomError, signatureOf, TABLE, type DecodedArg, type DecodeWith } from './decode.ts'

/**
 * Why a call failed, from its revert data:
 * - `error`: `Error(string)` (`require(cond, "...")`, `revert("...")`), `message` its text;
 * - `panic`: `Panic(uint256)`, `code` the panic code (`0x11`), `message` what it means;
 * - `custom`: an error of the contract's ABI or of the stack's own contracts, by `name` (and
 *   `signature`) with its `args`; `message` is the call as written, `NotOperator(0x…)`;
 * - `unknown`: data nothing names (`selector` its first four bytes, null for less), or none at
 *   all (`message` then says how the call failed, as the trace gives it).
 * `data` is always the raw revert data (`0x` for none).
 */
export type RevertReason = {
  kind: 'error' | 'panic' | 'custom' | 'unknown'
  message: string
  name?: string
  signature?: string
  args?: DecodedArg[]
  code?: string
  selector: Hex | null
  data: Hex
}

const ERROR_SELECTOR = '0x08c379a0'
const PANIC_SELECTOR = '0x4e487b71'

/** What the compiler's panic codes mean (the Solidity documentation's list). */
export const PANIC_MEANINGS: Record<number, string> = {
  0x00: 'generic compiler-inserted panic',
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'conversion to an enum out of range',
  0x22: 'incorrectly encoded storage byte array',
  0x31: 'pop on an empty array',
  0x32: 'array index out of bounds',
  0x41: 'too much memory allocated',
  0x51: 'call to a zero-initialised function pointer',
}

/** Failures the node reports for a call that reverted on purpose, as opposed to running out of gas and the like. */
const REVERTED = /^(reverted|execution reverted)$/i

/**
 * The reason of a failed call from its revert data (`0x` or null for none), naming custom errors
 * from `using`'s ABIs and the stack's own errors. `failure` is the node's word for the failure
 * (`Reverted`, `out of gas`), which is the message when there is no data.
 */
export function decodeRevert(data: Hex | null, using: DecodeWith = TABLE, failure: string | null = null): RevertReason {
  const raw = (data ?? '0x').toLowerCase() as Hex
  const selector = raw.length >= 10 ? (raw.slice(0, 10) as Hex) : null
  const rest = `0x${raw.slice(10)}` as Hex
  if (selector === ERROR_SELECTOR) {
    try {
      const [message] = decodeAbiParameters([{ type: 'string' }], rest)
      return { kind: 'error', message, selector, data: raw }
    } catch {
      // Not a well-formed Error(string): shown raw below.
    }
  } else if (selector === PANIC_SELECTOR) {
    try {
      const [code] = decodeAbiParameters([{ type: 'uint256' }], rest)
      const meaning = code <= 0xffn ? PANIC_MEANINGS[Number(code)] : undefined
      return { kind: 'panic', message: meaning ?? `unknown panic code 0x${code.toString(16)}`, code: `0x${code.toString(16).padStart(2, '0')}`, selector, data: raw }
    } catch {
      // Not a well-formed Panic(uint256).
    }
  } else if (selector) {
    const custom = decodeCustomError(raw, using)
    if (custom) {
      const message = `${custom.item.name}(${custom.args.map(show).join(', ')})`
      return { kind: 'custom', message, name: custom.item.name, signature: signatureOf(custom.item), args: custom.args, selector, data: raw }
    }
  }
  const message = selector
    ? `unknown error ${selector}`
    : raw.length > 2
      ? 'reverted with data too short to name'
      : failure && !REVERTED.test(failure)
        ? failure
        : 'reverted without a reason'
  return { kind: 'unknown', message, selector, data: raw }
}

/** An argument as the message writes it: strings quoted, numbers and addresses bare, the rest as JSON. */
const show = ({ type, value }: DecodedArg) => (type === 'string' || typeof value === 'object' ? JSON.stringify(value) : String(value))

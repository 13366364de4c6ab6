import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { encodeAbiParameters, encodeErrorResult, parseAbi, type Abi, type Hex } from 'viem'
import { decodeRevert, PANIC_MEANINGS } from './revert.ts'
import { TABLE } from './decode.ts'
import type { AbiError } from './signatures.ts'

const OPERATOR = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const errors = parseAbi(['error Error(string)', 'error Panic(uint256)', 'error Nope(uint256 wanted, string why)', 'error NotOperator(address caller)'])
const panic = (code: bigint) => encodeErrorResult({ abi: errors, errorName: 'Panic', args: [code] })

test('Error(string) gives its message', () => {
  const data = encodeErrorResult({ abi: errors, errorName: 'Error', args: ['plain message'] })
  expect(decodeRevert(data)).toEqual({ kind: 'error', message: 'plain message', selector: '0x08c379a0', data })
})

test('Panic(uint256) gives its code and what it means, for every code the compiler uses', () => {
  expect(decodeRevert(panic(0x11n))).toEqual({ kind: 'panic', message: 'arithmetic overflow or underflow', code: '0x11', selector: '0x4e487b71', data: panic(0x11n) })
  expect(decodeRevert(panic(0x12n))).toMatchObject({ code: '0x12', message: 'division or modulo by zero' })
  expect(decodeRevert(panic(1n))).toMatchObject({ code: '0x01', message: 'assertion failed' })
  expect(decodeRevert(panic(0x32n))).toMatchObject({ code: '0x32', message: 'array index out of bounds' })
  expect(Object.keys(PANIC_MEANINGS).map(Number)).toEqual([0x00, 0x01, 0x11, 0x12, 0x21, 0x22, 0x31, 0x32, 0x41, 0x51])
  expect(decodeRevert(panic(0x99n))).toMatchObject({ kind: 'panic', code: '0x99', message: 'unknown panic code 0x99' })
  expect(decodeRevert(panic(2n ** 200n))).toMatchObject({ kind: 'panic', message: `unknown panic code 0x${(2n ** 200n).toString(16)}` })
})

test('a custom error of the given ABI, by name with its arguments', () => {
  const data = encodeErrorResult({ abi: errors, errorName: 'Nope', args: [6n, 'no'] })
  const reason = decodeRevert(data, { abis: [errors], tableFirst: false })
  expect(reason).toEqual({
    kind: 'custom',
    message: 'Nope(6, "no")',
    name: 'Nope',
    signature: 'Nope(uint256,string)',
    args: [
      { name: 'wanted', type: 'uint256', value: '6' },
      { name: 'why', type: 'string', value: 'no' },
    ],
    selector: data.slice(0, 10) as Hex,
    data,
  })
  // Without the ABI it is raw.
  expect(decodeRevert(data)).toEqual({ kind: 'unknown', message: `unknown error ${data.slice(0, 10)}`, selector: data.slice(0, 10) as Hex, data })
})

test("the stack's own errors are named with no ABI given (the faucet's NotOperator)", () => {
  const data = encodeErrorResult({ abi: errors, errorName: 'NotOperator', args: [OPERATOR] })
  expect(decodeRevert(data, TABLE)).toMatchObject({ kind: 'custom', name: 'NotOperator', message: `NotOperator(${OPERATOR})`, args: [{ name: 'caller', type: 'address', value: OPERATOR }] })
})

test('no data, short data and malformed standard errors are unknown, with the raw data', () => {
  expect(decodeRevert(null)).toEqual({ kind: 'unknown', message: 'reverted without a reason', selector: null, data: '0x' })
  expect(decodeRevert('0x', TABLE, 'Reverted')).toMatchObject({ message: 'reverted without a reason' })
  expect(decodeRevert('0x', TABLE, 'out of gas')).toEqual({ kind: 'unknown', message: 'out of gas', selector: null, data: '0x' })
  expect(decodeRevert('0xdead')).toEqual({ kind: 'unknown', message: 'reverted with data too short to name', selector: null, data: '0xdead' })
  // The selector of Error(string) with a body that is not a string; of Panic with nothing after it.
  const broken = `0x08c379a0${encodeAbiParameters([{ type: 'uint256' }], [2n ** 255n]).slice(2)}` as Hex
  expect(decodeRevert(broken)).toMatchObject({ kind: 'unknown', selector: '0x08c379a0', data: broken })
  expect(decodeRevert('0x4e487b71')).toMatchObject({ kind: 'unknown', selector: '0x4e487b71' })
  // A custom error's selector with arguments that do not fit it.
  expect(decodeRevert('0x76c6c93a00')).toMatchObject({ kind: 'unknown', selector: '0x76c6c93a' })
})

test("every custom error of the stack's compiled contracts is named without an ABI", () => {
  const folder = join(import.meta.dir, '../../contracts/out')
  let count = 0
  for (const file of readdirSync(folder).filter((name) => name.endsWith('.json'))) {
    const { abi } = JSON.parse(readFileSync(join(folder, file), 'utf8')) as { abi: Abi }
    for (const item of abi.filter((entry): entry is AbiError => entry.type === 'error')) {
      const data = encodeErrorResult({ abi: [item], errorName: item.name, args: item.inputs.map(sample) as never })
      // Types, not parameter names: one selector may have other names in another contract (the games' and the lottery's TooEarly).
      expect(decodeRevert(data)).toMatchObject({ kind: 'custom', name: item.name, args: item.inputs.map((input) => ({ type: input.type })) })
      count++
    }
  }
  expect(count).toBeGreaterThan(50)
})

function sample(input: { type: string }): unknown {
  if (input.type === 'address') return OPERATOR
  if (input.type === 'string') return 'label'
  if (input.type === 'bytes32') return `0x${'ab'.repeat(32)}`
  if (input.type.startsWith('int')) return -3n
  return 7n
}

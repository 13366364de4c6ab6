import { expect, test } from 'bun:test'
import { encodeErrorResult, parseAbi } from 'viem'
import { decodeRevert } from './revert.ts'

const abi = parseAbi(['error NotOperator(address caller)', 'error TooLow(uint256 have, uint256 want)'])

test('a require message, a panic and a custom error are said in words', () => {
  const message = encodeErrorResult({ abi: parseAbi(['error Error(string)']), errorName: 'Error', args: ['not enough'] })
  expect(decodeRevert(message)).toMatchObject({ kind: 'error', message: 'not enough', name: 'Error' })
  const panic = encodeErrorResult({ abi: parseAbi(['error Panic(uint256)']), errorName: 'Panic', args: [0x11n] })
  expect(decodeRevert(panic)).toMatchObject({ kind: 'panic', message: 'panic 0x11: arithmetic overflow or underflow' })
  const custom = encodeErrorResult({ abi, errorName: 'TooLow', args: [3n, 10n] })
  expect(decodeRevert(custom, [abi])).toMatchObject({
    kind: 'custom',
    name: 'TooLow',
    message: 'TooLow(3, 10)',
    signature: 'TooLow(uint256,uint256)',
    args: [{ name: 'have', type: 'uint256', value: '3' }, { name: 'want', type: 'uint256', value: '10' }],
  })
})

test('an error no ABI names keeps its selector and data; no data is a bare revert', () => {
  const custom = encodeErrorResult({ abi, errorName: 'NotOperator', args: ['0x0000000000000000000000000000000000000001'] })
  expect(decodeRevert(custom)).toMatchObject({ kind: 'unknown', selector: custom.slice(0, 10), data: custom })
  expect(decodeRevert('0x')).toMatchObject({ kind: 'empty', message: 'reverted without a reason' })
  expect(decodeRevert(null)).toMatchObject({ kind: 'empty' })
})

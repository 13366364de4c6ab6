import { expect, test } from 'bun:test'
import { encodeEventTopics, encodeFunctionData, parseAbi, type Address, type Hex } from 'viem'
import { decodeInput, decodeLog, methodName } from './decode.ts'

const ALICE: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BOB: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const abi = parseAbi([
  'function transfer(address to, uint256 value)',
  'function transferFrom(address from, address to, uint256 value)',
  'function dripTo(address to)',
  'function exactInputSingle((address tokenIn, address tokenOut, uint24 fee, address recipient, uint256 deadline, uint256 amountIn, uint256 amountOutMinimum, uint160 sqrtPriceLimitX96) params)',
  'function multicall(bytes[] data)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
])

test('an ERC-20 transfer is named, with its arguments as JSON (amounts as decimal strings)', () => {
  const data = encodeFunctionData({ abi, functionName: 'transfer', args: [BOB, 10n ** 30n] })
  expect(decodeInput(data)).toEqual({
    name: 'transfer',
    signature: 'transfer(address,uint256)',
    selector: '0xa9059cbb',
    args: [
      { name: 'to', type: 'address', value: BOB },
      { name: 'value', type: 'uint256', value: '1000000000000000000000000000000' },
    ],
  })
  expect(methodName('0xa9059cbb')).toBe('transfer')
})

test('transferFrom reads as a token id on an NFT contract', () => {
  const data = encodeFunctionData({ abi, functionName: 'transferFrom', args: [ALICE, BOB, 7n] })
  expect(decodeInput(data)!.args[2]!.name).toBe('value')
  expect(decodeInput(data, { nft: true })!.args[2]).toEqual({ name: 'tokenId', type: 'uint256', value: '7' })
})

test('a router call with a struct, and a multicall whose inner calls are decoded too', () => {
  const params = { tokenIn: ALICE, tokenOut: BOB, fee: 3000, recipient: ALICE, deadline: 1n, amountIn: 5n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }
  const swap = encodeFunctionData({ abi, functionName: 'exactInputSingle', args: [params] })
  const drip = encodeFunctionData({ abi, functionName: 'dripTo', args: [BOB] })
  const decoded = decodeInput(encodeFunctionData({ abi, functionName: 'multicall', args: [[swap, drip, '0xdeadbeef00']] }))!
  expect(decoded.name).toBe('multicall')
  expect(decoded.calls![0]).toMatchObject({ name: 'exactInputSingle', args: [{ name: 'params', value: { ...params, deadline: '1', amountIn: '5', amountOutMinimum: '0', sqrtPriceLimitX96: '0' } }] })
  expect(decoded.calls![1]).toMatchObject({ name: 'dripTo', args: [{ name: 'to', value: BOB }] })
  expect(decoded.calls![2]).toEqual({ selector: '0xdeadbeef', data: '0xdeadbeef00' })
})

test('unknown selectors, short input and arguments that do not fit give null', () => {
  expect(decodeInput('0x12345678')).toBeNull()
  expect(decodeInput('0x')).toBeNull()
  expect(decodeInput('0xa9059cbb00' as Hex)).toBeNull()
  expect(methodName('0x12345678')).toBeNull()
})

test('logs: ERC-20 and ERC-721 Transfer are told apart by their topics', () => {
  const topics = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: ALICE, to: BOB } }) as Hex[]
  expect(decodeLog(topics, `0x${'0'.repeat(63)}9`)).toEqual({
    name: 'Transfer',
    signature: 'Transfer(address,address,uint256)',
    args: { from: ALICE, to: BOB, value: '9' },
  })
  const nft = decodeLog([...topics, `0x${'0'.repeat(63)}7`], '0x')
  expect(nft).toMatchObject({ name: 'Transfer', args: { from: ALICE, to: BOB, tokenId: '7' } })
  expect(decodeLog([`0x${'1'.repeat(64)}`], '0x')).toBeNull()
})

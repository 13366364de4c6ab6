import { expect, test } from 'bun:test'
import { encodeAbiParameters, encodeEventTopics, encodeFunctionData, parseAbi, parseAbiParameters, type Abi, type Address, type Hex } from 'viem'
import { decodeInput, decodeLog, decodeOutput, decodeWith, methodName, TABLE } from './decode.ts'

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
    types: { from: 'address', to: 'address', value: 'uint256' },
  })
  const nft = decodeLog([...topics, `0x${'0'.repeat(63)}7`], '0x')
  expect(nft).toMatchObject({ name: 'Transfer', args: { from: ALICE, to: BOB, tokenId: '7' } })
  expect(decodeLog([`0x${'1'.repeat(64)}`], '0x')).toBeNull()
})

// A contract's own ABI: a developer's names first, outputs decoded, the table behind it.
const own = parseAbi([
  'function transfer(address recipient, uint256 amount) returns (bool ok)',
  'function add(uint256 a, uint256 b) returns (uint256 sum, bool big)',
  'function poke()',
  'event Transfer(address indexed src, address indexed dst, uint256 wad)',
  'event Poked(address indexed by, uint256 times)',
])
const ownContract = { abis: [own], tableFirst: false }

test("with a contract's ABI: its names come first, and selectors the table lacks are named", () => {
  const data = encodeFunctionData({ abi, functionName: 'transfer', args: [BOB, 5n] })
  expect(decodeInput(data, { using: ownContract })!.args.map((arg) => arg.name)).toEqual(['recipient', 'amount'])
  // The stack's own contracts keep the table's names.
  expect(decodeInput(data, { using: { abis: [own], tableFirst: true } })!.args.map((arg) => arg.name)).toEqual(['to', 'value'])
  const add = encodeFunctionData({ abi: own, functionName: 'add', args: [2n, 3n] })
  expect(decodeInput(add)).toBeNull()
  expect(decodeInput(add, { using: ownContract })).toMatchObject({ name: 'add', signature: 'add(uint256,uint256)', args: [{ name: 'a', value: '2' }, { name: 'b', value: '3' }] })
  expect(methodName(add.slice(0, 10) as Hex, ownContract)).toBe('add')
  expect(methodName(add.slice(0, 10) as Hex)).toBeNull()
  // A proxy's calls: the proxy's own ABI, then its implementation's.
  expect(decodeWith({ abi: [], by: { kind: 'artifact', match: 'match', path: 'out/A.json', sources: null }, proxy: { kind: 'eip1967', implementation: ALICE, target: { abi: own } as never } }).abis).toEqual([[], own])
  expect(decodeWith(null)).toBe(TABLE)
})

test('return values are named by the outputs of the ABI; the table knows none', () => {
  const add = encodeFunctionData({ abi: own, functionName: 'add', args: [2n, 3n] })
  const output = encodeAbiParameters(parseAbiParameters('uint256, bool'), [5n, false])
  expect(decodeOutput(add, output, { using: ownContract })).toEqual([
    { name: 'sum', type: 'uint256', value: '5' },
    { name: 'big', type: 'bool', value: false },
  ])
  const poke = encodeFunctionData({ abi: own, functionName: 'poke' })
  expect(decodeOutput(poke, null, { using: ownContract })).toEqual([])
  expect(decodeOutput(add, '0x1234', { using: ownContract })).toBeNull()
  expect(decodeOutput(encodeFunctionData({ abi, functionName: 'dripTo', args: [BOB] }), null)).toBeNull()
})

test("logs by the emitter's ABI first, the table behind it", () => {
  const topics = encodeEventTopics({ abi, eventName: 'Transfer', args: { from: ALICE, to: BOB } }) as Hex[]
  const data = `0x${'0'.repeat(63)}9` as Hex
  expect(decodeLog(topics, data, ownContract)).toEqual({
    name: 'Transfer',
    signature: 'Transfer(address,address,uint256)',
    args: { src: ALICE, dst: BOB, wad: '9' },
    types: { src: 'address', dst: 'address', wad: 'uint256' },
  })
  expect(decodeLog(topics, data, { abis: [own], tableFirst: true })!.args).toEqual({ from: ALICE, to: BOB, value: '9' })
  const poked = encodeEventTopics({ abi: own, eventName: 'Poked', args: { by: ALICE } }) as Hex[]
  expect(decodeLog(poked, encodeAbiParameters(parseAbiParameters('uint256'), [3n]))).toBeNull()
  expect(decodeLog(poked, encodeAbiParameters(parseAbiParameters('uint256'), [3n]), ownContract)).toMatchObject({ name: 'Poked', args: { by: ALICE, times: '3' } })
})

test('an ABI with items viem cannot read still names the rest', () => {
  const odd = [{ type: 'function', name: 'broken', inputs: [{ name: 'x', type: 'uint77777' }], outputs: [], stateMutability: 'nonpayable' }, ...own] as unknown as Abi
  const add = encodeFunctionData({ abi: own, functionName: 'add', args: [2n, 3n] })
  expect(decodeInput(add, { using: { abis: [odd], tableFirst: false } })!.name).toBe('add')
})

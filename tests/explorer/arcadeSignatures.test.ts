import { expect, test } from 'bun:test'
import { encodeAbiParameters, toFunctionSelector, type AbiEvent, type AbiFunction, type Hex } from 'viem'
import { formatAbiItem } from 'viem/utils'
import { ours } from '../../src/devnet/artifacts.ts'
import { decodeInput, decodeLog } from '../../src/decode/decode.ts'
import { eventTopics } from '../../src/eth/events.ts'

// The explorer names every call a player or the bank's owner makes, and every event the arcade
// emits, from its table of plain signatures: each must match the compiled contracts. The same
// holds for the fee router, the name registry, the token launcher and the price feed.
const ARCADE = ['ArcadeBank', 'CoinFlip', 'Dice', 'Crash', 'Roulette', 'Slots', 'Plinko', 'Mines', 'Lottery'] as const
const PROTOCOL = ['FeeRouter', 'NameRegistry', 'TokenLauncher', 'EthUsdFeed'] as const

for (const name of [...ARCADE, ...PROTOCOL]) {
  const abi = ours[name].abi
  test(`the explorer decodes every state-changing call and every event of ${name}`, () => {
    const writes = abi.filter((item): item is AbiFunction => item.type === 'function' && item.stateMutability !== 'view' && item.stateMutability !== 'pure')
    expect(writes.length).toBeGreaterThan(0)
    for (const item of writes) {
      const data = (toFunctionSelector(item) + encodeAbiParameters(item.inputs, item.inputs.map(sample)).slice(2)) as Hex
      const decoded = decodeInput(data)
      expect(decoded?.signature ?? `${formatAbiItem(item)} not decoded`).toBe(formatAbiItem(item))
      // Same selector, same types: the names may differ only where another contract shares it (WETH's withdraw).
      if (!['deposit', 'withdraw'].includes(item.name)) expect(decoded!.args.map((arg) => arg.name)).toEqual(item.inputs.map((input) => input.name ?? ''))
    }
    for (const item of abi.filter((entry): entry is AbiEvent => entry.type === 'event')) {
      const indexed = item.inputs.filter((input) => input.indexed)
      const topics = eventTopics([item], item.name, Object.fromEntries(indexed.map((input) => [input.name!, sample(input)])))
      const plain = item.inputs.filter((input) => !input.indexed)
      const decoded = decodeLog(topics, encodeAbiParameters(plain, plain.map(sample)))
      expect(decoded?.signature ?? `${formatAbiItem(item)} not decoded`).toBe(formatAbiItem(item))
      expect(Object.keys(decoded!.args)).toEqual(item.inputs.map((input) => input.name!))
    }
  })
}

function sample(input: { type: string }): unknown {
  if (input.type === 'address') return '0x00000000000000000000000000000000000000a1'
  if (input.type === 'bool') return true
  if (input.type === 'uint8[3]') return [1, 2, 3]
  if (input.type === 'string') return 'alice'
  if (input.type === 'bytes32') return `0x${'ab'.repeat(32)}`
  if (input.type === 'int256') return -7n
  if (input.type.startsWith('uint')) return input.type === 'uint256' || input.type === 'uint96' || input.type === 'uint64' ? 7n : 7
  throw new Error(`no sample for ${input.type}`)
}

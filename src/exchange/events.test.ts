import { describe, expect, test } from 'bun:test'
import { hexToBytes, toEventSelector, toEventSignature, type AbiEvent } from 'viem'
import { selectorOf } from '../eth/words.ts'
import { uniswap } from '../devnet/artifacts.ts'
import { clEvents, v2Events } from './events.ts'

const eventsOf = (abi: readonly unknown[]) =>
  new Map((abi as AbiEvent[]).filter((item) => item.type === 'event').map((item) => [item.name, toEventSignature(item)]))

describe('the event signatures the streams select on', () => {
  test('constant-product: as the v2-core factory and pair ABIs declare them', () => {
    const declared = new Map([...eventsOf(uniswap.UniswapV2Factory.abi), ...eventsOf(uniswap.UniswapV2Pair.abi)])
    for (const [name, event] of Object.entries(v2Events)) {
      expect(event.signature).toBe(declared.get(name)!)
      expect(event.selector).toBe(toEventSelector(declared.get(name)!))
      expect(event.head).toBe(selectorOf(hexToBytes(event.selector)))
    }
  })

  test('concentrated: as the v3-core factory and pool ABIs declare them', () => {
    const declared = new Map([...eventsOf(uniswap.UniswapV3Factory.abi), ...eventsOf(uniswap.UniswapV3Pool.abi)])
    for (const [name, event] of Object.entries(clEvents)) expect(event.signature).toBe(declared.get(name)!)
  })

  test('within each family, the first four bytes tell every event apart', () => {
    for (const family of [v2Events, clEvents]) {
      const heads = Object.values(family).map((event) => event.head)
      expect(new Set(heads).size).toBe(heads.length)
    }
  })
})

import { describe, expect, test } from 'bun:test'
import { blockReward } from './modules/block.ts'
import { decimalOf } from './modules/stats.ts'
import { blockRange, listPage, Refusal, refusing, RESULT_WINDOW } from './params.ts'
import { functionName } from './rows.ts'

const fields = (query: string) => new Map(new URLSearchParams(query))
const refusal = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    if (error instanceof Refusal) return error.message
    throw error
  }
  return null
}

describe('paging as Etherscan pages', () => {
  test('page and offset: the whole window by default, page × offset at most 10,000', () => {
    expect(listPage(fields(''))).toEqual({ limit: 10_000, offset: 0, newestFirst: false })
    expect(listPage(fields('page=3&offset=25&sort=desc'))).toEqual({ limit: 25, offset: 50, newestFirst: true })
    expect(listPage(fields('page=100&offset=100'))).toEqual({ limit: 100, offset: 9900, newestFirst: false })
    expect(listPage(fields('offset=20'))).toEqual({ limit: 20, offset: 0, newestFirst: false })
    expect(refusal(() => listPage(fields('page=101&offset=100')))).toBe(RESULT_WINDOW)
    expect(refusal(() => listPage(fields('page=1&offset=10001')))).toBe(RESULT_WINDOW)
    expect(refusal(() => listPage(fields('page=-1&offset=1')))).toBe('Error! Invalid page number')
    expect(refusal(() => listPage(fields('page=1&offset=1.5')))).toBe('Error! Invalid offset number')
    expect(refusal(() => listPage(fields('sort=random')))).toBe('Error! Invalid sort order')
    // A smaller cap (getLogs' thousand) holds the page's rows without moving the window rule.
    expect(listPage(fields('page=2&offset=5000'), 1000)).toEqual({ limit: 1000, offset: 1000, newestFirst: false })
  })

  test('block ranges: decimal or latest, endblock held to the last block Etherscan names', () => {
    expect(blockRange(fields(''), 50)).toEqual({ first: 0, last: 99_999_999 })
    expect(blockRange(fields('startblock=10&endblock=latest'), 50)).toEqual({ first: 10, last: 50 })
    expect(blockRange(fields('endblock=999999999999'), 50)).toEqual({ first: 0, last: 99_999_999 })
    expect(refusal(() => blockRange(fields('startblock=0x10'), 50))).toBe('Error! Invalid startblock')
  })

  test('a refusal is an answer, any other error stays an error', async () => {
    expect(await refusing(() => { throw new Refusal('Error! Invalid address format') })(new Map())).toEqual({ status: '0', message: 'NOTOK', result: 'Error! Invalid address format' })
    await expect(refusing(() => { throw new Error('boom') })(new Map())).rejects.toThrow('boom')
  })
})

describe('the words and figures of answers', () => {
  test('decimalOf writes a fraction exactly', () => {
    expect(decimalOf({ numerator: 300_012_345_678n, denominator: 10n ** 8n })).toBe('3000.12345678')
    expect(decimalOf({ numerator: 300_000_000_000n, denominator: 10n ** 8n })).toBe('3000')
    expect(decimalOf({ numerator: 5n, denominator: 10n ** 8n })).toBe('0.00000005')
  })

  test('blockReward: the tips above the base fee, nothing for the burnt part', () => {
    expect(blockReward([{ gasUsed: 21_000, effectiveGasPrice: '10', gasPrice: null }, { gasUsed: 50_000, effectiveGasPrice: '7', gasPrice: '9' }], '7')).toBe('63000')
    expect(blockReward([], null)).toBe('0')
  })

  test('functionName: Etherscan’s form of a decoded call, names where the ABI has them', () => {
    const arg = (name: string, type: string) => ({ name, type, value: null })
    expect(functionName({ name: 'transfer', signature: 'transfer(address,uint256)', args: [arg('to', 'address'), arg('value', 'uint256')] })).toBe('transfer(address to, uint256 value)')
    expect(functionName({ name: 'deposit', signature: 'deposit()', args: [] })).toBe('deposit()')
    expect(functionName({ name: 'collect', signature: 'collect((uint256,address,uint128,uint128))', args: [arg('params', 'tuple')] })).toBe('collect((uint256,address,uint128,uint128) params)')
    expect(functionName({ name: 'f', signature: 'f(uint256,(bool,bytes)[])', args: [arg('arg0', 'uint256'), arg('legs', 'tuple[]')] })).toBe('f(uint256, (bool,bytes)[] legs)')
  })
})

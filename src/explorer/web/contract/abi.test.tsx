import { describe, expect, test } from 'bun:test'
import { parseAbi, type AbiFunction, type AbiParameter } from 'viem'
import { functionsOf, InputError, isRead, parseInput, signatureOf } from './abi.ts'

const abi = parseAbi([
  'function count() view returns (uint256)',
  'function add(uint256 by)',
  'function set((address who, uint8[2] marks) entry, bytes32 tag)',
  'function add(uint256 by, string note)',
])
const [count, add, set, addNote] = abi as unknown as AbiFunction[]
const param = (type: string, components?: AbiParameter[]) => ({ name: 'x', type, ...(components ? { components } : {}) }) as AbiParameter

describe('the functions of a contract', () => {
  test('by signature, overloads apart, the implementation first behind a proxy and each once; reads apart from writes', () => {
    expect(functionsOf([abi, [count!]]).map(signatureOf)).toEqual(['count()', 'add(uint256)', 'set((address,uint8[2]),bytes32)', 'add(uint256,string)'])
    expect(functionsOf([null, abi]).filter(isRead).map((item) => item.name)).toEqual(['count'])
    expect(isRead(addNote!)).toBe(false)
    expect(isRead({ ...add!, stateMutability: 'nonpayable', constant: true } as AbiFunction)).toBe(true)
  })
})

describe('what a person types, read as the values viem encodes', () => {
  test('numbers in decimal or hex, bounded by their type', () => {
    expect(parseInput(param('uint256'), ' 42 ')).toBe(42n)
    expect(parseInput(param('uint8'), '0xff')).toBe(255n)
    expect(parseInput(param('int8'), '-128')).toBe(-128n)
    expect(() => parseInput(param('uint8'), '256')).toThrow('x: 256 does not fit in a uint8')
    expect(() => parseInput(param('int8'), '128')).toThrow(InputError)
    expect(() => parseInput(param('uint256'), '-1')).toThrow('does not fit')
    expect(() => parseInput(param('uint256'), '1.5')).toThrow('x: a uint256 is a whole number')
    expect(() => parseInput(param('uint256'), '')).toThrow('whole number')
  })

  test('booleans, addresses, bytes and text', () => {
    expect(parseInput(param('bool'), 'true')).toBe(true)
    expect(parseInput(param('bool'), '0')).toBe(false)
    expect(() => parseInput(param('bool'), 'yes')).toThrow('true or false')
    expect(parseInput(param('address'), '0xA0Ee7A142d267C1f36714E4a8F75612F20a79720')).toBe('0xa0ee7a142d267c1f36714e4a8f75612f20a79720')
    expect(() => parseInput(param('address'), '0x1234')).toThrow('40 hex digits')
    expect(parseInput(param('bytes'), '0xABCD')).toBe('0xabcd')
    expect(() => parseInput(param('bytes'), '0xabc')).toThrow('even number')
    expect(() => parseInput(param('bytes4'), '0xabcdef')).toThrow('a bytes4 is 0x and 8 hex digits')
    expect(parseInput(param('string'), ' spaced ')).toBe(' spaced ')
  })

  test('arrays and tuples as JSON, each item read by its own type', () => {
    expect(parseInput(param('uint256[]'), '["1", 2, "0x03"]')).toEqual([1n, 2n, 3n])
    expect(() => parseInput(param('uint8[2]'), '[1]')).toThrow('x: a uint8[2] has 2 items, not 1')
    const entry = set!.inputs[0]!
    const byArray = parseInput(entry, '["0xa0ee7a142d267c1f36714e4a8f75612f20a79720", [1, 2]]')
    expect(byArray).toEqual(['0xa0ee7a142d267c1f36714e4a8f75612f20a79720', [1n, 2n]])
    expect(parseInput(entry, '{"who": "0xa0ee7a142d267c1f36714e4a8f75612f20a79720", "marks": ["1", "2"]}')).toEqual(byArray)
    expect(() => parseInput(entry, '{"who": "0x12", "marks": [1, 2]}')).toThrow('entry.who: an address is 0x and 40 hex digits')
    expect(() => parseInput(param('uint256[]'), '[1,')).toThrow('x: write a uint256[] as JSON')
  })
})

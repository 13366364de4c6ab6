import { describe, expect, test } from 'bun:test'
import { foldKey } from './fold.ts'
import { PrefixIndex, wordKeys } from './prefixIndex.ts'

describe('PrefixIndex', () => {
  test('finds by the start of any key, case-insensitively, exact keys first, each entry once', () => {
    const index = new PrefixIndex<string>()
    index.add('BX token', ['BX', 'BX Token'])
    index.add('BXL', ['BXL'])
    index.add('Wrapped Ether', wordKeys('Wrapped Ether'))
    expect(index.find('bx', 10)).toEqual([
      { entry: 'BX token', exact: true },
      { entry: 'BXL', exact: false },
    ])
    expect(index.find('ether', 10)).toEqual([{ entry: 'Wrapped Ether', exact: true }])
    expect(index.find('x', 10)).toEqual([])
    expect(index.find('', 10)).toEqual([])
  })

  test('entries added after a search are merged in order', () => {
    const index = new PrefixIndex<number>()
    for (const n of [5, 1, 3]) index.add(n, [`k${n}`])
    expect(index.find('k', 10).map((hit) => hit.entry)).toEqual([1, 3, 5])
    for (const n of [4, 0, 2]) index.add(n, [`k${n}`])
    expect(index.find('k', 10).map((hit) => hit.entry)).toEqual([0, 1, 2, 3, 4, 5])
    expect(index.size).toBe(6)
  })

  test('stops at the limit and after walking the keys it may walk', () => {
    const index = new PrefixIndex<number>()
    for (let n = 0; n < 1000; n++) index.add(n, [`a${String(n).padStart(4, '0')}`])
    expect(index.find('a', 5)).toHaveLength(5)
    // One entry under many keys: the walk is bounded even when every key is the same entry's.
    const many = new PrefixIndex<string>()
    many.add('one', Array.from({ length: 100 }, (_, n) => `z${n}`))
    many.add('two', ['zz'])
    expect(many.find('z', 2, 10).map((hit) => hit.entry)).toEqual(['one'])
  })
})

test('foldKey and wordKeys', () => {
  expect(foldKey('  Wrapped   ETHER ')).toBe('wrapped ether')
  expect(wordKeys('Wrapped Ether (WETH9)')).toEqual(['Wrapped Ether (WETH9)', 'Ether (WETH9)', 'WETH9)'])
  expect(wordKeys('a b c d e f g h', 3)).toEqual(['a b c d e f g h', 'b c d e f g h', 'c d e f g h'])
})

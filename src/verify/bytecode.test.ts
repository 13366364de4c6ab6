import { describe, expect, test } from 'bun:test'
import { keccak256 } from 'viem'
import { auxdataRanges, maskedRuntimeHash, maskRuntime, put, trailingAuxdata, zero } from './bytecode.ts'

// solc's metadata as it ends a code: a CBOR map {ipfs: <34 bytes>, solc: 0.8.37}, then its length (0x0033 = 51).
const auxdata = (fill: string) => `a2646970667358221220${fill.repeat(32)}64736f6c6343000825` + '0033'
const program = '6080604052348015600e575f5ffd5b50'

describe('metadata in code', () => {
  test("the trailing CBOR is found by the length in the code's last two bytes", () => {
    const code = program + auxdata('ab')
    expect(trailingAuxdata(code)).toEqual({ start: program.length / 2, length: 53 })
    // Code that ends otherwise (appendCBOR off, a length pointing before the start, not a CBOR map) has none.
    expect(trailingAuxdata(program)).toBeNull()
    expect(trailingAuxdata('6080ffff')).toBeNull()
    expect(trailingAuxdata(`${program}0000`)).toBeNull()
  })

  test("a code that carries another's (a factory) has each auxdata of the compile masked, at byte boundaries only", () => {
    const child = auxdata('cd')
    const code = program + child + '00' + auxdata('ab')
    const ranges = auxdataRanges(code, [child, 'a'])
    expect(ranges).toEqual([
      { start: program.length / 2, length: 53 },
      { start: program.length / 2 + 54, length: 53 },
    ])
    // An auxdata that is found only across a byte boundary is not one.
    expect(auxdataRanges(`0${child}0`, [child])).toEqual([])
  })

  test('put and zero change exactly the bytes of a range', () => {
    expect(put('aabbccdd', { start: 1, length: 2 }, '1122')).toBe('aa1122dd')
    expect(zero('aabbccdd', [{ start: 0, length: 1 }, { start: 3, length: 4 }])).toBe('00bbcc00')
  })
})

describe('the masked runtime hash', () => {
  const immutableReferences = { '7': [{ start: 2, length: 4 }] }
  const code = (immutable: string, meta: string) => `0x6080${immutable}6052${auxdata(meta)}`

  test('two codes that differ only in immutables and metadata hash alike; a code change does not', () => {
    const a = code('11111111', 'ab')
    const b = code('22222222', 'cd')
    expect(maskRuntime(a, { immutableReferences })).toBe(maskRuntime(b, { immutableReferences }))
    expect(maskedRuntimeHash(a, { immutableReferences })).toBe(maskedRuntimeHash(b, { immutableReferences }))
    expect(maskedRuntimeHash(a, { immutableReferences })).toBe(keccak256(`0x608000000000605200${'0'.repeat(104)}`))
    expect(maskedRuntimeHash(a.replace('6052', '6053'), { immutableReferences })).not.toBe(maskedRuntimeHash(b, { immutableReferences }))
    // Without the immutables' places, their bytes count.
    expect(maskedRuntimeHash(a)).not.toBe(maskedRuntimeHash(b))
  })
})
